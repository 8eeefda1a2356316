import { ConfigError, loadConfig, type Config } from '../config.js';
import {
  configuredDatabase,
  DatabaseConnectError,
  openDatabase,
  type Database,
} from '../db/client.js';

/** Opens and migrates the configured database for a command-line tool, or exits with one clear line. */
export async function openConfiguredDatabase(): Promise<{ config: Config; database: Database }> {
  try {
    const config = loadConfig();
    const database = await openDatabase(configuredDatabase(config));
    await database.migrate();
    return { config, database };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseConnectError) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
