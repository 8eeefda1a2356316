#!/usr/bin/env node
/**
 * Makes sure ClamAV's daemon is installed, because the tests of virus scanning
 * (apps/server/test/clamd.ts) run a real clamd on loopback, with a test signature of
 * their own: nothing is downloaded from ClamAV's servers.
 */
import { ensureAptProgram } from './lib/apt.mjs';

ensureAptProgram({
  script: 'ensure-clamav',
  what: "ClamAV's daemon (clamd)",
  path: process.env.CLAMD_PATH || '/usr/sbin/clamd',
  pathVariable: 'CLAMD_PATH',
  packages: ['clamav-daemon'],
});
