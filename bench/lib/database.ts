import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Manifest } from './manifest.js';

/*
 * The figures' own connection to the manifest's database, for their hand-written SQL
 * baselines: PostgreSQL by its URL, or PGlite's files (before the server holds them).
 */

export type Query = (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

type Row = Record<string, unknown>;

/** The rows of a query, as plain records. */
export const rowsOf = async (query: Query, text: string, params: unknown[] = []) =>
  (await query(text, params)).rows as Row[];

/** The first column of a query's first row, as a number (0 without a row). */
export const numberOf = async (query: Query, text: string, params: unknown[] = []) =>
  Number(Object.values((await rowsOf(query, text, params))[0] ?? {})[0] ?? 0);

const DAY = 24 * 60 * 60 * 1000;

/** A call in review at `now`: submission closed 10 days ago, review open 9 days, 30 more to go. */
export function inReviewWindows(now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  return {
    commencement: at(-60),
    termination: at(-10),
    reviewCommencement: at(-9),
    reviewTermination: at(30),
  };
}

/** Runs `use` with a client of the manifest's database, closed afterwards. */
export async function withDatabase<T>(
  manifest: Manifest,
  use: (query: Query) => Promise<T>,
): Promise<T> {
  if ('url' in manifest.database) {
    const client = new pg.Client({ connectionString: manifest.database.url });
    await client.connect();
    try {
      return await use((text, params) => client.query(text, params));
    } finally {
      await client.end();
    }
  }
  const client = new PGlite(join(manifest.database.dataDir, 'db'));
  await client.waitReady;
  try {
    return await use((text, params) => client.query(text, params));
  } finally {
    await client.close();
  }
}

/** Times `runs` calls of `fn` after `warmUp` untimed ones; milliseconds each. */
export async function timed(
  runs: number,
  fn: () => Promise<unknown>,
  warmUp = 3,
): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * A benchmark's own committee and call, found by the committee's name, or made afresh
 * when missing or not as `current` wants it: the old one deleted (its proposals first, as
 * reviews restrict their reviewer, not their proposal), `make` run, all in one
 * transaction, then `vacuum analyze` of the tables it wrote. `query` must be one connection.
 */
export async function ensureBenchCommittee<T>(
  query: Query,
  options: {
    name: string;
    describe: (committeeId: number) => Promise<T | undefined>;
    current: (found: T) => boolean;
    /** Runs before the transaction when the call is to be made (what it builds on). */
    before?: () => Promise<void>;
    make: () => Promise<void>;
    vacuum: string;
  },
): Promise<T & { made: boolean }> {
  const find = async () =>
    (await rowsOf(query, 'select id from committees where name = $1', [options.name]))[0];
  const found = await find();
  const call = found ? await options.describe(Number(found.id)) : undefined;
  if (call !== undefined && options.current(call)) return { ...call, made: false };
  await options.before?.();
  await query('begin', []);
  try {
    if (found) {
      const id = Number(found.id);
      await query(
        'delete from proposals where call_id in (select id from calls where committee_id = $1)',
        [id],
      );
      await query('delete from calls where committee_id = $1', [id]);
      await query('delete from committee_roles where committee_id = $1', [id]);
      await query('delete from committees where id = $1', [id]);
    }
    await options.make();
    await query('commit', []);
  } catch (error) {
    await query('rollback', []);
    throw error;
  }
  // Statistics and the visibility map for the rows just written, as for the generated call.
  await query(`vacuum analyze ${options.vacuum}`, []);
  return { ...(await options.describe(Number((await find())!.id)))!, made: true };
}

/**
 * Copies the proposal types of call `sourceCallId`, with their forms, into call `callId`
 * (each type matched to its copy by position), for the figures' copies of the generated call.
 */
export async function copyProposalTypes(query: Query, callId: number, sourceCallId: number) {
  await query(
    `insert into proposal_types (call_id, name, position)
     select $1::int, name, position from proposal_types where call_id = $2::int
     order by position, id`,
    [callId, sourceCallId],
  );
  await query(
    `insert into proposal_type_forms (proposal_type_id, form_id, kind, position)
     select nt.id, f.form_id, f.kind, f.position
     from proposal_type_forms f
     join proposal_types ot on ot.id = f.proposal_type_id
     join proposal_types nt on nt.call_id = $1 and nt.position = ot.position
     where ot.call_id = $2
     order by nt.id, f.kind, f.position`,
    [callId, sourceCallId],
  );
}
