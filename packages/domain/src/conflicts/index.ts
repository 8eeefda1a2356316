export * from './conflicts.js';
export * from './conflicts.policy.js';
