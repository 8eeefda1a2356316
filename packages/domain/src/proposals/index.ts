export * from './reviewed.js';
