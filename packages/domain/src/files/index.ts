export * from './files.js';
export * from './file.policy.js';
