import { defineConfig } from 'drizzle-kit';

// Only `npm run db:generate -w @merit/server` reads this: it writes a new SQL migration
// from the difference between src/db/schema.ts and the last one.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
