import type { ProposalFile } from '@merit/contract';
import { fileMessages, MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } from '@merit/domain';
import type { QueryClient } from '@tanstack/react-query';
import Uppy, { type UppyFile } from '@uppy/core';
import Tus, { type TusBody } from '@uppy/tus';
import { endSession, getToken } from '../../api/session';
import { getTabId, TAB_HEADER } from '../../api/tab-id';
import type { Notify } from '../../components/notifications/notification-context';
import { fileOfUpload, UPLOADS_ENDPOINT } from './files.api';
import { uploadFailedMessage } from './upload-messages';

/** Where a file goes: a form's file field, or the proposal's other attachments. */
export interface UploadTarget {
  proposalId: number;
  field?: { formId: number; name: string };
}

export interface UploadSnapshot {
  /** The upload under way: the file's name and how much of it the server holds. */
  current: { name: string; percent: number } | null;
  /** Files uploaded since the view last took them (see `take`). */
  finished: readonly ProposalFile[];
}

/** Form fields take PDFs only (issue 12): the extract merges them into the proposal's PDF. */
export const PDF_TYPES = ['application/pdf', '.pdf'];

/**
 * Waits between tries of a chunk. A connection that drops near a deadline often comes back
 * within a minute: the upload keeps trying that long before it gives up. While the
 * browser says it is offline, the tus plugin holds each try until it is back online.
 */
const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000];

type Meta = Record<string, string>;

/**
 * The name of an Uppy instance for a target. Uppy starts every file's id with it, and the
 * tus plugin keeps an unfinished upload's address in localStorage under that id: the same
 * file chosen again for the same target (after a reload, too) continues where it stopped,
 * while the same file chosen for another field starts an upload of its own.
 */
function uppyId({ proposalId, field }: UploadTarget): string {
  const where = field ? `form-${field.formId}-${encodeURIComponent(field.name)}` : 'attachments';
  return `merit-proposal-${proposalId}-${where}`;
}

function createUppy(target: UploadTarget): Uppy<Meta, TusBody> {
  const meta: Meta = { proposal: String(target.proposalId) };
  if (target.field) {
    meta.form = String(target.field.formId);
    meta.field = target.field.name;
  }
  return new Uppy<Meta, TusBody>({
    id: uppyId(target),
    // The view starts each upload itself, once the file has passed the restrictions.
    autoProceed: false,
    meta,
    restrictions: {
      maxFileSize: MAX_UPLOAD_BYTES,
      // Spec section 9: one file at a time.
      maxNumberOfFiles: 1,
      allowedFileTypes: target.field ? PDF_TYPES : null,
    },
    // Uppy logs each failed upload as a console error, though the page has told the person
    // why (see `upload-error` below): a refusal or a lost connection is not a fault of
    // the page, so it goes down as a warning.
    logger: {
      debug: () => undefined,
      warn: (...args: unknown[]) => console.warn('[Uppy]', ...args),
      error: (...args: unknown[]) => console.warn('[Uppy]', ...args),
    },
    // The domain's words instead of Uppy's, so the browser and the server say the same.
    locale: {
      strings: {
        exceedsSize: fileMessages.tooLarge(MAX_UPLOAD_BYTES),
        youCanOnlyUploadFileTypes: fileMessages.notPdf,
      },
      // English: one file, two files.
      pluralize: (count) => (count === 1 ? 0 : 1),
    },
  }).use(Tus, {
    endpoint: UPLOADS_ENDPOINT,
    chunkSize: UPLOAD_CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    // Read when each upload starts, so a new login's token is the one sent; the tab's id
    // too, as every API request sends it: the editing lock an upload needs is per tab.
    headers: (): Record<string, string> => {
      const token = getToken();
      return {
        [TAB_HEADER]: getTabId(),
        ...(token ? { Authorization: `Token ${token}` } : {}),
      };
    },
    // What makes an interrupted upload resumable after a reload: its address is kept...
    storeFingerprintForResuming: true,
    // ...until it is complete. A finished upload "resumed" would make no new file.
    removeFingerprintOnSuccess: true,
    // The server's metadata only: Uppy's own (name, type, relativePath) would go too.
    allowedMetaFields: [...Object.keys(meta), 'filename', 'filetype'],
  });
}

/**
 * The uploads of one target, outside React: an upload goes on while its view is away (the
 * editor's other tab, the dialog closed), and the view finds the file when it is back.
 */
class Uploader {
  private snapshot: UploadSnapshot = { current: null, finished: [] };
  private readonly listeners = new Set<() => void>();
  private readonly uppy: Uppy<Meta, TusBody>;
  private notify: Notify = () => {};
  private client: QueryClient | null = null;

  constructor(private readonly target: UploadTarget) {
    this.uppy = createUppy(target);
    this.uppy.on('upload-progress', (file, { bytesUploaded, bytesTotal }) => {
      if (!file) return;
      const percent = bytesTotal ? Math.floor((bytesUploaded / bytesTotal) * 100) : 0;
      this.update({ current: { name: file.name ?? '', percent } });
    });
    this.uppy.on('upload-success', (file, response) => {
      void this.finish(file, response.uploadURL);
    });
    this.uppy.on('upload-error', (file, _error, response) => {
      if (response?.status === 401) endSession('expired');
      this.notify(uploadFailedMessage(response?.status, response?.body?.xhr.responseText), 'error');
      this.done(file);
    });
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = () => this.snapshot;

  /** Starts uploading `file`, unless one is under way or the file breaks a restriction. */
  start(file: File, { notify, client }: { notify: Notify; client: QueryClient }): void {
    if (this.snapshot.current) return;
    this.notify = notify;
    this.client = client;
    try {
      this.uppy.addFile({
        name: file.name,
        type: file.type,
        data: file,
        source: 'Local',
        meta: { filename: file.name, filetype: file.type },
      });
    } catch (error) {
      // A restriction (too large, not a PDF): Uppy's error carries the domain's message.
      notify(error instanceof Error ? error.message : fileMessages.uploadFailed, 'error');
      return;
    }
    this.update({ current: { name: file.name, percent: 0 } });
    // Failures arrive as `upload-error` above; the promise has nothing more to say.
    this.uppy.upload().catch(() => undefined);
  }

  /** The files finished since the last call, for the view to use once. */
  readonly take = (): readonly ProposalFile[] => {
    const { finished } = this.snapshot;
    if (finished.length > 0) this.update({ finished: [] });
    return finished;
  };

  private async finish(file: UppyFile<Meta, TusBody> | undefined, uploadUrl: string | undefined) {
    const found =
      uploadUrl && this.client
        ? await fileOfUpload(this.client, this.target.proposalId, uploadUrl).catch(() => undefined)
        : undefined;
    if (found) {
      this.update({ finished: [...this.snapshot.finished, found] });
      // A field's file is part of the answers only once they are saved.
      this.notify(
        this.target.field
          ? `“${found.name}” has been uploaded. Save the form to keep it in your answers.`
          : `“${found.name}” has been uploaded.`,
      );
    } else {
      this.notify(`${fileMessages.uploadFailed} the server did not list the file.`, 'error');
    }
    this.done(file);
  }

  /** Frees the one place for the next file: Uppy counts the files it holds. */
  private done(file: UppyFile<Meta, TusBody> | undefined) {
    if (file && this.uppy.getFile(file.id)) this.uppy.removeFile(file.id);
    this.update({ current: null });
  }

  private update(change: Partial<UploadSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

const uploaders = new Map<string, Uploader>();

/**
 * The uploader of `key`: one per form field's entry, or per proposal for attachments. It
 * lives as long as the page, like the upload it may be running.
 */
export function uploaderFor(key: string, target: UploadTarget): Uploader {
  let uploader = uploaders.get(key);
  if (!uploader) {
    uploader = new Uploader(target);
    uploaders.set(key, uploader);
  }
  return uploader;
}
