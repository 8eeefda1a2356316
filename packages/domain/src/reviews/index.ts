export * from './reviewing.js';
export * from './scores.js';
export * from './comments.js';
export * from './review-editing-messages.js';
