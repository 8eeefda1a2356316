import { requestDownloadTicket } from './files.api';

/**
 * How long a saved PDF's object URL lives. Chromium starts reading a blob download only
 * after the click has returned, so revoking it at once can cancel the download.
 */
const OBJECT_URL_LIFETIME_MS = 10_000;

/**
 * Follows a link in a hidden `<a download>`: the browser saves what it points to instead
 * of leaving the page (and the editor's unsaved answers with it).
 */
export function followDownloadLink(href: string, name = ''): void {
  const link = document.createElement('a');
  link.href = href;
  // Empty: the server's Content-Disposition names the file.
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Downloads one of a proposal's files through a single-use ticket, so the long-lived
 * token never appears in an address, a history entry or a server log (ARCHITECTURE.md).
 */
export async function downloadProposalFile(fileId: number): Promise<void> {
  const { url } = await requestDownloadTicket({ fileId });
  followDownloadLink(url);
}

/** Saves bytes made or fetched by the page as a file called `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  followDownloadLink(url, name);
  window.setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}

/** A file name for what a person named: no path separators or characters systems refuse. */
export function safeFileName(name: string, extension: string): string {
  const base = name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ').trim() || 'proposal';
  return `${base}.${extension}`;
}

/** The most characters of one part of a download's name: file systems allow 255 bytes. */
const NAME_PART_MAX = 80;

/**
 * A download's file name from its parts, "Call - Type - Resources.csv": each part made
 * safe for file systems and cut short, the empty ones left out.
 */
export function downloadFileName(parts: readonly string[], extension: string): string {
  const named = parts
    .map((part) =>
      part
        .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, NAME_PART_MAX)
        // Windows drops a name's trailing dots and spaces.
        .replace(/[. ]+$/, ''),
    )
    .filter((part) => part !== '');
  return safeFileName(named.join(' - '), extension);
}
