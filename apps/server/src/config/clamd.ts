/** CLAMD_URL: where ClamAV's daemon listens, which platform/io/virus-scan.ts scans uploads with. */

/** Where clamd listens: `tcp://host:port`, or `unix:/path/to/clamd.ctl`. */
export type ClamdAddress = { host: string; port: number } | { path: string };

const WHAT_CLAMD_URL_IS = 'must be tcp://host:port or unix:/path/to/clamd.ctl';

/** The address in CLAMD_URL, or what it must be (as in "CLAMD_URL must be …, but is …"). */
export function parseClamdUrl(raw: string): ClamdAddress | string {
  if (raw.startsWith('unix:')) {
    const socket = raw.slice('unix:'.length).replace(/^\/\/(?=\/)/, '');
    return socket.startsWith('/')
      ? { path: socket }
      : 'must name an absolute socket path, as in unix:/run/clamav/clamd.ctl';
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return WHAT_CLAMD_URL_IS;
  }
  if (url.protocol !== 'tcp:' || !url.hostname || !url.port || url.pathname.replace('/', ''))
    return WHAT_CLAMD_URL_IS;
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) };
}

/** Where an address points, for log lines and messages. */
export function describeClamd(address: ClamdAddress): string {
  return 'path' in address ? `unix:${address.path}` : `tcp://${address.host}:${address.port}`;
}
