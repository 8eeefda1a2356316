import type { FullConfig } from '@playwright/test';
import { setUpServer } from './global-setup';

/**
 * The journeys' server, for the manual's screenshots, built without the manual: the
 * manual may already show a picture that this run is about to make for the first time,
 * and would not build without it.
 */
export default async function screenshotsSetup(_config: FullConfig) {
  return setUpServer(['web', 'server']);
}
