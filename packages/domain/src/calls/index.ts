export * from './windows.js';
export * from './call.policy.js';
export * from './call-validation.js';
export * from './extensions.js';
