import { fileMessages } from '@merit/domain';
import { describe, expect, it } from 'vitest';
import { uploadFailedMessage } from './upload-messages';

const failed = fileMessages.uploadFailed;

describe('uploadFailedMessage', () => {
  it.each([
    [
      'the server’s reason after the status',
      413,
      JSON.stringify({ detail: 'The file is larger than 25 MB.', code: 'too_large' }),
      `${failed} 413. The file is larger than 25 MB.`,
    ],
    [
      'the status alone for a body that is not ours',
      502,
      '<html>Bad Gateway</html>',
      `${failed} 502`,
    ],
    ['the status alone for no body', 500, undefined, `${failed} 500`],
    [
      'the connection when nothing answered',
      undefined,
      undefined,
      `${failed} the server could not be reached. Choose the same file again to continue.`,
    ],
  ])('gives %s', (_case, status, body, message) => {
    expect(uploadFailedMessage(status, body)).toBe(message);
  });
});
