import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { TEST_TIMEOUT } from './src/test/timeouts';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Rendering whole pages in jsdom on a busy two-core CI machine (the API tests run
    // alongside) can take seconds; these limits are for a slow machine, not slow code.
    // TEST_TIMEOUT_SCALE stretches this and every wait inside a test (src/test/timeouts.ts).
    testTimeout: TEST_TIMEOUT,
    hookTimeout: TEST_TIMEOUT,
  },
});
