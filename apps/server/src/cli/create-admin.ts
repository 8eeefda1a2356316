import { MIN_PASSWORD_LENGTH } from '@merit/domain';
import { parseArgs } from 'node:util';
import {
  checkServerSecret,
  SecretKeyFileError,
  serverKeysFor,
  WrongServerSecretError,
} from '../platform/security/server-key.js';
import { upsertAdmin } from '../modules/users/users.service.js';
import { openConfiguredDatabase } from './shared.js';

const usage = 'Usage: npm run create-admin -- --username NAME --email ADDRESS --password PASSWORD';

let values: { username?: string; email?: string; password?: string };
try {
  ({ values } = parseArgs({
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}

const { username, email, password } = values;
const problems = [
  !username && '--username is required',
  !email && '--email is required',
  email && !email.includes('@') && '--email must be an email address',
  !password && '--password is required',
  password &&
    password.length < MIN_PASSWORD_LENGTH &&
    `--password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
].filter(Boolean);
if (problems.length > 0) {
  console.error(`${problems.join('; ')}.\n${usage}`);
  process.exit(2);
}

const { config, database } = await openConfiguredDatabase();
try {
  // The password is hashed with the pepper of the server's secret, as the server's own are:
  // with another secret than the database's, the server would not accept it.
  const keys = await serverKeysFor(config);
  await checkServerSecret(database.db, keys, config);
  const { user, created } = await upsertAdmin(
    database.db,
    { username: username!, email: email!, password: password! },
    keys.passwordPepper,
  );
  console.log(
    created
      ? `Created administrator "${user.username}".`
      : `Reset administrator "${user.username}": new password and email set, account verified and active.`,
  );
} catch (error) {
  if (!(error instanceof WrongServerSecretError || error instanceof SecretKeyFileError))
    throw error;
  console.error(`Error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
