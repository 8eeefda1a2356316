/**
 * Defines `<altcha-widget>`. Its code (~30 KB of gzipped JavaScript) downloads only with
 * the register page, never with login. Tests replace this module with a stand-in element.
 */
export async function loadAltcha(): Promise<void> {
  await import('./altcha-setup');
}
