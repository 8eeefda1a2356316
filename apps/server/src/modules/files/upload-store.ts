import type { DataStore } from '@tus/server';

/**
 * Where the tus endpoint keeps uploads in progress, with what the sweep and the finish
 * need beyond tus's own store interface.
 */
export interface UploadStore {
  datastore: DataStore;
  /** The ids of every upload kept, finished or not. */
  ids(): Promise<string[]>;
  /** When an upload began (tus stamps it with the real clock); null without its record. */
  begun(id: string): Promise<Date | null>;
  /** Throws away all that is kept of an upload. */
  forget(id: string): Promise<void>;
  /** A finished upload's bytes: in a file on this machine, or read whole. */
  bytes(id: string): Promise<Buffer | { file: string }>;
}
