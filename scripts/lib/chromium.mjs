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
 * Debian's build of Chromium's headless shell (package chromium-headless-shell): the same
 * Blink and V8 without the desktop browser around them, which is what Playwright runs for
 * headless pages by default. The benchmarks time pages in it: Debian's Chromium 156 in its
 * full headless mode took 1.7x as long as 150 over the same build of the app, on a machine
 * without a GPU, while the 156 shell takes what 150 took (bench/README.md, 2026-11-27).
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/lib/chromium/chromium-headless-shell';

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
