/**
 * Where the browser lives and how to start it, shared by the e2e suite, the
 * benchmarks and scripts/ensure-chromium.mjs.
 *
 * We drive Debian's Chromium rather than Playwright's own build because a test
 * tool's browser download cannot reach its servers from our machines.
 */

/** Override with CHROMIUM_PATH to use another Chromium (a developer's laptop, say). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Our network is closed: without the background-networking flags Chromium keeps
 * opening connections to Google's hosts that are refused, many at a time, which
 * slows and muddles the runs. --no-sandbox because CI runs as root.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
