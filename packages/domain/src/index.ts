export * from './messages.js';
export * from './users.js';
export * from './roles.js';
export * from './auth.js';
export * from './permissions/navigation.policy.js';
export * from './validation/index.js';
export * from './next-path.js';
