import { openConfiguredDatabase } from './shared.js';

// `npm run db:migrate`: applies pending migrations and exits. The server also migrates
// at start, so this is for deployments that migrate as a separate step.
const { database } = await openConfiguredDatabase();
await database.close();
console.log(`Migrations applied (${database.kind}).`);
