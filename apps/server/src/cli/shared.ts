import { ConfigError, loadConfig, type Config } from '../config/config.js';
import {
  configuredDatabase,
  DatabaseConnectError,
  openDatabase,
  type Database,
} from '../db/client.js';
import { dataDirInUse, holdDataDir } from '../platform/io/online-backup.js';
import { keepNewFilesPrivate } from '../platform/io/private-files.js';

/** Opens and migrates the configured database for a command-line tool, or exits with one clear line. */
export async function openConfiguredDatabase(): Promise<{ config: Config; database: Database }> {
  keepNewFilesPrivate();
  try {
    const config = loadConfig();
    // Two processes on one embedded database corrupt it (platform/io/online-backup.ts).
    if (!config.databaseUrl && (await dataDirInUse(config.dataDir))) {
      console.error(
        `Error: a Merit server (or another Merit command) is using DATA_DIR ${config.dataDir}, and two processes must not open its database at once. Stop the server, run this again, then start the server.`,
      );
      process.exit(1);
    }
    const database = await openDatabase(configuredDatabase(config));
    // Held while open, so that a server starting meanwhile refuses instead.
    const release = database.snapshot ? await holdDataDir(config.dataDir) : undefined;
    await database.migrate();
    return {
      config,
      database: {
        ...database,
        close: async () => {
          await database.close();
          await release?.();
        },
      },
    };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseConnectError) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
