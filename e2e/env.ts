/** Names of the variables global-setup.ts hands to the test workers. */
export const E2E_ENV = {
  baseUrl: 'MERIT_E2E_BASE_URL',
  adminUsername: 'MERIT_E2E_ADMIN_USERNAME',
  adminEmail: 'MERIT_E2E_ADMIN_EMAIL',
  adminPassword: 'MERIT_E2E_ADMIN_PASSWORD',
  /**
   * The server's DATA_DIR: with no SMTP_URL it writes every mail to <DATA_DIR>/outbox
   * as an .eml file, where journeys read verification and reset links.
   */
  dataDir: 'MERIT_E2E_DATA_DIR',
} as const;

/** Reads one of them, failing with a hint when global setup did not run. */
export function e2eEnv(name: keyof typeof E2E_ENV): string {
  const value = process.env[E2E_ENV[name]];
  if (!value) {
    throw new Error(
      `${E2E_ENV[name]} is not set. Run the journeys with \`npm run test:e2e\` (its global ` +
        'setup starts the server), or set it for a server you started yourself.',
    );
  }
  return value;
}
