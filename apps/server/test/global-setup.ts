/**
 * vitest's globalSetup for the server's projects: migrates ONE template database per run,
 * which every test file's `freshDatabase()` (helpers.ts) copies instead of migrating its
 * own. Migrating took 1.5 to 4 s a file on PGlite (after 12 s and more for PGlite's initdb
 * on a loaded machine) and 2 to 3 s on PostgreSQL; a copy takes 3 to 4 s on PGlite
 * (`loadDataDir`) and about 0.25 s on PostgreSQL (CREATE DATABASE ... TEMPLATE).
 *
 * The template is made from the migrations in the source every run and removed at the
 * end of it, so no run copies a stale one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a tar of the migrated template's data folder, for `loadDataDir`. */
    pgliteTemplateTar?: string;
    /** PostgreSQL: the name of the migrated template database on TEST_DATABASE_URL's server. */
    postgresTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // root vitest.config.ts sets TEST_DB per project; a run of apps/server's own config alone
  // is on PGlite, as testDatabaseKind() says.
  const kind = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  return kind === 'postgres' ? postgresTemplate(project) : pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject): Promise<() => Promise<void>> {
  const database = await openDatabase({ kind: 'pglite' });
  let tar: Blob;
  try {
    await database.migrate();
    const client = (database.db as unknown as { $client: PGlite }).$client;
    // Written out first, so each copy opens with no WAL to replay.
    await client.exec('checkpoint');
    // Uncompressed: gunzipping 43 MB in every test file would cost more than reading it.
    tar = await client.dumpDataDir('none');
  } finally {
    await database.close();
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'merit-pglite-template-'));
  const file = path.join(folder, 'template.tar');
  await writeFile(file, new Uint8Array(await tar.arrayBuffer()));
  project.provide('pgliteTemplateTar', file);
  return () => rm(folder, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL to point at a PostgreSQL server.');
  const name = `merit_tpl_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const drop = () => admin(`drop database if exists ${name} with (force)`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString() });
    try {
      await database.migrate();
    } finally {
      // Ends every pooled connection: CREATE DATABASE ... TEMPLATE fails while any session
      // is connected to the template.
      await database.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  project.provide('postgresTemplate', name);
  return drop;
}
