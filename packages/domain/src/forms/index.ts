export * from './form-types.js';
export * from './form-options.js';
export * from './form-validation.js';
