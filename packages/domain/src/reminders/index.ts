export * from './reminders.js';
export * from './progress.js';
