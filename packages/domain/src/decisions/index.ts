export * from './outcomes.js';
export * from './ranking.js';
