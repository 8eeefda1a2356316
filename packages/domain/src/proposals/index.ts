export * from './reviewed.js';
export * from './proposal.policy.js';
