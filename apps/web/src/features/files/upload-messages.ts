import { fileMessages } from '@merit/domain';

/** A failed upload that may continue: the same file chosen again resumes it. */
const unreachable = 'the server could not be reached. Choose the same file again to continue.';

/** The server's `detail` in an error body, when the body is one. */
function detailOf(body: string | undefined): string | null {
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'detail' in parsed) {
      const { detail } = parsed as { detail: unknown };
      return typeof detail === 'string' && detail ? detail : null;
    }
  } catch {
    // A proxy's HTML page or nothing at all: the status says enough.
  }
  return null;
}

/**
 * Spec section 8: `There was an issue uploading the file:` followed by the status, and
 * the server's reason when it gave one (`413. The file is larger than 25 MB…`), so the
 * person knows what to change. With no answer at all, the connection is to blame.
 */
export function uploadFailedMessage(status: number | undefined, body?: string): string {
  if (!status) return `${fileMessages.uploadFailed} ${unreachable}`;
  const detail = detailOf(body);
  return `${fileMessages.uploadFailed} ${status}${detail ? `. ${detail}` : ''}`;
}
