import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Rendering whole pages in jsdom on a busy two-core CI machine (the API tests run
    // alongside) can take seconds; these limits are for a slow machine, not slow code.
    testTimeout: 30_000,
  },
});
