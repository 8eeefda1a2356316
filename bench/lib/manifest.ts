/**
 * What the data generator leaves for the benchmarks (bench/.data/manifest.json unless
 * `--manifest` names another file): where the database is, the call, and who to be. The
 * tokens are API tokens stored as a login stores them, so no benchmark logs in (login is
 * rate-limited and wants a captcha).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_MANIFEST = join(BENCH_DIR, '.data', 'manifest.json');
/** Where the generator puts an embedded database when neither DATABASE_URL nor DATA_DIR is set. */
export const DEFAULT_DATA_DIR = join(BENCH_DIR, '.data', 'pglite');

export interface Account {
  userId: number;
  username: string;
  password: string;
  token: string;
}

export interface Editor extends Account {
  proposalId: number;
  /** The form the editor's Save saves: the first proposal form of the open call's type. */
  formId: number;
  callId: number;
  proposalTypeId: number;
}

export interface Manifest {
  /** `{url}` for PostgreSQL, `{dataDir}` for PGlite (the server's DATA_DIR). */
  database: { url: string } | { dataDir: string };
  generatedAt: string;
  /** What it was generated with: `npm run bench` compares it to pick whether to generate again. */
  size: {
    proposals: number;
    reviews: number;
    /** Absent in manifests made before `--members`. */
    members?: number;
    facilities: number;
    editors: number;
  };
  /** What the data holds besides (absent in manifests made before issue 31). */
  contents?: {
    /** Conflicts of interest: declared by applicants and members, and detected. */
    conflicts: number;
    bids: number;
    /** Reviewer assignments of the main call. */
    assignments: number;
    /** The closed copy of the call with outcomes and awards (bench/lib/decisions-call.ts). */
    decisionsCallId?: number;
  };
  /** Seconds the generator took. */
  seconds: number;
  callId: number;
  proposalTypeIds: number[];
  openCallId: number;
  facilities: string[];
  chair: Account;
  member: Account;
  proposalIds: number[];
  proposalWithReviewsId: number;
  editors: Editor[];
  /**
   * The SECRET_KEY the data was made with (its password hashes are peppered with it): every
   * server started on this database gets it, so the accounts' passwords work on each, and
   * on both processes of the scale-out run. Absent in manifests made before it.
   */
  secretKey?: string;
}

export async function readManifest(path = DEFAULT_MANIFEST): Promise<Manifest> {
  return JSON.parse(await readFile(path, 'utf8')) as Manifest;
}

/** The environment that points a started server at the manifest's database, with its secret. */
export function databaseEnv(manifest: Manifest): Record<string, string | undefined> {
  return {
    DATABASE_URL: 'url' in manifest.database ? manifest.database.url : undefined,
    SECRET_KEY: manifest.secretKey,
  };
}
