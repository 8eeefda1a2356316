import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each file builds its own app on its own fresh database; files run in parallel.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
