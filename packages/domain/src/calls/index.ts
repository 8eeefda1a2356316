export * from './windows.js';
export * from './call.policy.js';
