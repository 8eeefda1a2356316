// Before anything builds a zod schema, as the app does (api/contract-module.ts): the
// tests parse the contract the way the browser will.
import '../api/zod-jitless';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetSessionForTests } from '../api/session';
import { ASYNC_UTIL_TIMEOUT } from './timeouts';

// findBy* and waitFor give a loaded machine time before declaring an element missing.
configure({ asyncUtilTimeout: ASYNC_UTIL_TIMEOUT });

// jsdom has no layout, so no scrolling; react-router's ScrollRestoration calls it.
window.scrollTo = () => {};

// Without vitest globals, testing-library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetSessionForTests();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
