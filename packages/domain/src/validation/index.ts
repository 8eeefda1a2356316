export * from './fields.js';
export * from './passwords.js';
export * from './account.js';
export * from './role.js';
export * from './committee.js';
export * from './privacy.js';
export * from './password-strength.js';
export * from './expertise.js';
