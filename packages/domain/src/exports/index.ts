export * from './spreadsheet-text.js';
