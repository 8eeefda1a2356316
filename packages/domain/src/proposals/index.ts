export * from './reviewed.js';
export * from './proposal.policy.js';
export * from './proposal-list.js';
export * from './answer-messages.js';
export * from './editing-messages.js';
export * from './decision-messages.js';
export * from './submission-standing.js';
