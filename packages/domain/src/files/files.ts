/**
 * Files attached to proposals (spec sections 2, 3, 7, 8 and 9; issue 12). Plain rules and
 * numbers that the server enforces and the web app shows.
 */

/** Spec section 9: the upload widget's limits. */
export const MAX_UPLOAD_BYTES = 26_214_400;
export const UPLOAD_CHUNK_BYTES = 524_288;
/** The completed uploads are cleared from the widget's list after this long. */
export const COMPLETED_UPLOADS_SHOWN_MS = 3_000;
/** A download ticket works once, within this time. */
export const DOWNLOAD_TICKET_TTL_MS = 60_000;

export const fileMessages = {
  /** Spec section 8, word for word; the status follows it. */
  uploadFailed: 'There was an issue uploading the file:',
  /** Spec section 8, word for word. */
  pdfFailed: 'There was an error generating or downloading the PDF.',
  tooLarge: (limitBytes: number) =>
    `The file is larger than ${formatBytes(limitBytes)}, the most a file may be.`,
  notPdf: 'This field takes a PDF file only, and this file is not a PDF.',
  empty: 'The file is empty.',
  notFound: 'There is no such file on this proposal.',
  fieldNotInForm: 'This form has no file field of that name.',
  ticketInvalid: 'This download link has expired or was already used. Download the file again.',
  /** The virus scanner (CLAMD_URL) found something: the name of what it found follows the colon. */
  infected: (found: string) =>
    `This file was not stored: the virus scanner found something harmful in it (${found}).`,
  /** The virus scanner did not answer: the file is not taken unscanned. */
  scannerUnavailable:
    'Files cannot be checked for viruses right now, so this one was not stored. Try again in a few minutes.',
} as const;

/** Bytes as people read them: 25 MB, 512 KB, 900 bytes (1024-based, as file sizes usually are). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const mb = bytes / (1024 * 1024);
    return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  }
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** A PDF starts with `%PDF-` (ISO 32000): the bytes decide, never the file's name. */
export function isPdf(head: Uint8Array): boolean {
  const magic = [0x25, 0x50, 0x44, 0x46, 0x2d];
  return head.length >= magic.length && magic.every((byte, i) => head[i] === byte);
}

type JsonSchema = Record<string, unknown>;

/**
 * The file fields of a form: string properties with `format: "data-url"` in the schema,
 * or `"ui:widget": "file"` in the UI schema, at the top level of the form. Their value in
 * the answers is a file id (spec section 3), not the file itself.
 */
export function fileFields(schema: JsonSchema, uiSchema: JsonSchema = {}): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([name, property]) => {
      if (property.type !== 'string') return false;
      const ui = (uiSchema[name] ?? {}) as JsonSchema;
      return property.format === 'data-url' || ui['ui:widget'] === 'file';
    })
    .map(([name]) => name);
}

/**
 * The schema answers are checked against: each file field takes a file id (a whole
 * number written as text) instead of the data URL the form's own schema names, so the
 * browser and the server accept what the upload stored and nothing else.
 */
export function answerSchema(schema: JsonSchema, uiSchema: JsonSchema = {}): JsonSchema {
  const fields = fileFields(schema, uiSchema);
  if (fields.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const name of fields) {
    const { format: _format, ...rest } = properties[name]!;
    properties[name] = { ...rest, pattern: '^[1-9][0-9]*$' };
  }
  return { ...schema, properties };
}

/** A file's name, kept for display only: no path, no control characters, at most 255 long. */
export function displayFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((ch) => {
      const code = ch.codePointAt(0)!;
      return code >= 0x20 && code !== 0x7f;
    })
    .join('')
    .trim();
  return (clean || 'file').slice(0, 255);
}
