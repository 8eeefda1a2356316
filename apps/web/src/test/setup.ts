import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetSessionForTests } from '../api/session';

// jsdom has no layout, so no scrolling; react-router's ScrollRestoration calls it.
window.scrollTo = () => {};

// Without vitest globals, testing-library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  resetSessionForTests();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
