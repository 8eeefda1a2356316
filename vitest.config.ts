import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One vitest run covers every workspace. The server's API tests run once per
 * database: always on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's two cores, one file at a
    // time. An API test file waits on its database as much as it computes, so two files at
    // once finish a sample of ten in 60 s instead of 80 s there; more cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      'packages/domain',
      'packages/contract',
      'apps/web',
      'docs',
      {
        extends: './apps/server/vitest.config.ts',
        test: {
          name: 'server:pglite',
          root: './apps/server',
          env: { TEST_DB: 'pglite' },
          // What only a PostgreSQL server has (a pool, timeouts) runs in server:postgres.
          exclude: ['test/**/*.postgres.test.ts', '**/node_modules/**'],
        },
      },
      ...(withPostgres
        ? [
            {
              extends: './apps/server/vitest.config.ts',
              test: {
                name: 'server:postgres',
                root: './apps/server',
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
