/*
 * The files module's face for other modules: the proposal extract's rich text laid out for
 * pdfmake and its long-word breaks (a decision letter's PDF is made the same way), the
 * PDF worker threads that render it, and the keys stored bytes are written under.
 */
export { richText } from './extract-html.js';
export { breakable } from './extract-text.js';
export { PdfWorkerPool } from './pdf-worker.js';
export { newStorageKey } from './uploads.js';
