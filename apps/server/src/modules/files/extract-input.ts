/**
 * What the caller of the proposal extract hands over (see proposal-extract.ts): the
 * proposal's facts, its forms with their answers, and its files.
 */

export interface ExtractForm {
  id: number;
  /** The form's name, used as its section's heading. */
  name: string;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  /** A multi-entry form: `answers` is an array of entries in index order. */
  multi: boolean;
  /** null or [] when not answered. */
  answers: Record<string, unknown> | Record<string, unknown>[] | null;
}
export interface ExtractFile {
  id: number;
  name: string;
  contentType: string;
  /** Bytes, as stored: what counts against the cap on merged files. */
  size: number;
}
export interface ExtractInput {
  callName: string;
  proposalName: string;
  proposalTypeName: string;
  author: string;
  authorEmail: string;
  collaborators: { name: string; email: string }[];
  /** 'Draft' | 'Submitted' | 'Reviewed' */
  state: string;
  created: Date;
  lastModified: Date;
  /** In the call's order. */
  forms: ExtractForm[];
  /**
   * The proposal's files, which its file fields' values name by id written as text
   * ("12"). Only these are ever read.
   */
  files: ExtractFile[];
}
/** Reads a stored file's bytes (for merging PDFs); null when missing. */
export type ReadFileBytes = (fileId: number) => Promise<Buffer | null>;

/**
 * What a file field's answer turned out to be, decided once per file before laying out
 * (extract-attachments.ts); the worker that lays the extract out is handed them.
 */
export type StoredFile =
  | { kind: 'unknown' }
  | { kind: 'missing'; name: string }
  | { kind: 'other'; name: string }
  | { kind: 'pdf'; name: string; bytes: Uint8Array; pages: number }
  | { kind: 'unreadable'; name: string; problem: string };
