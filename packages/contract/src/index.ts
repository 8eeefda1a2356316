import './zod-messages.js';
export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './accounts.js';
export * from './admin.js';
export * from './forms.js';
export * from './calls.js';
export * from './proposals.js';
