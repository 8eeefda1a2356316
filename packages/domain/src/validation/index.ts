export * from './fields.js';
export * from './passwords.js';
export * from './account.js';
