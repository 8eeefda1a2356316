export * from './assignment.js';
export * from './propose.js';
