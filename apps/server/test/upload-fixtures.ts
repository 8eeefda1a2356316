import type { App } from '../src/platform/http/app-types.js';

/** Uploads as clients send them: the spec's multipart bodies and tus requests. */

/** A multipart body as the spec's upload endpoints take it: the fields, then the file. */
export async function multipartBody(
  fields: Record<string, string>,
  file?: { name: string; bytes: Buffer },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

/** tus's Upload-Metadata: each key with its value in base64. */
export const tusMetadata = (fields: Record<string, string | number>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(String(v)).toString('base64')}`)
    .join(',');

export const tusHeaders = (headers: Record<string, string>) => ({
  ...headers,
  'tus-resumable': '1.0.0',
});

/** Starts a tus upload of `size` bytes: the answer has the upload's path, or the refusal. */
export const startTusUpload = (
  app: App,
  headers: Record<string, string>,
  size: number,
  fields: Record<string, string | number>,
) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/uploads/',
    headers: tusHeaders({
      ...headers,
      'upload-length': String(size),
      'upload-metadata': tusMetadata(fields),
    }),
  });

/** Sends an upload's bytes from `offset`. */
export const sendTusBytes = (
  app: App,
  headers: Record<string, string>,
  location: string,
  offset: number,
  bytes: Buffer,
) =>
  app.inject({
    method: 'PATCH',
    url: location,
    headers: tusHeaders({
      ...headers,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    }),
    payload: bytes,
  });
