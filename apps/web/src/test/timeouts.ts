/**
 * How long the web tests wait, in one place. A component test waits for a condition (an
 * element, a call), never for a time; its limits only say when to give up. They are set for
 * a busy two-core machine, and TEST_TIMEOUT_SCALE (default 1) multiplies every one of them
 * at once, for a machine slower still: on a fresh clone's `npm test` at load average 6 to
 * 12, a page's first lazy import alone took over 4 seconds (issue 31).
 *
 * Read by vitest.config.ts (each test's limit) and test/setup.ts (findBy and waitFor), so
 * it imports nothing.
 */
export function timeoutScale(value = process.env.TEST_TIMEOUT_SCALE): number {
  if (value === undefined || value === '') return 1;
  const scale = Number(value);
  if (!Number.isFinite(scale) || scale < 1) {
    throw new Error(
      `TEST_TIMEOUT_SCALE is "${value}": set a number of 1 or more (2 doubles every test ` +
        'timeout), or leave it unset for 1.',
    );
  }
  return scale;
}

/** `ms` stretched by TEST_TIMEOUT_SCALE. */
export const scaled = (ms: number): number => Math.round(ms * timeoutScale());

/** How long a test may take, its waits included (vitest's testTimeout). */
export const TEST_TIMEOUT = scaled(30_000);

/** How long findBy and waitFor look before declaring an element missing. */
export const ASYNC_UTIL_TIMEOUT = scaled(8_000);

/**
 * How long the first findBy after renderApp looks: its page arrives through a chain of
 * lazily loaded chunks (the shell, then the page with its libraries), and the first import
 * of each in a test process evaluates it, which a loaded machine makes slow.
 */
export const NAVIGATION_TIMEOUT = scaled(20_000);

/**
 * How long a test file's beforeAll may take to load a page's code (preloadFirstRoute): the
 * first evaluation of the shell, the page and its libraries, which is all this process
 * does then. On a machine at load average 20 it took over 20 seconds.
 */
export const LOAD_TIMEOUT = scaled(60_000);
