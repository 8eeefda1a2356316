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
