export * from './conflicts.js';
export * from './conflicts.policy.js';
export * from './conflict-screen-messages.js';
