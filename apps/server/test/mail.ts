import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';

export interface ReadMail {
  to: string;
  subject: string;
  text: string;
  /** Every http(s) link in the text part. */
  links: string[];
}

export async function parseMail(raw: Buffer | string): Promise<ReadMail> {
  const email = await PostalMime.parse(raw);
  const text = email.text ?? '';
  return {
    to: email.to?.map((a) => a.address).join(', ') ?? '',
    subject: email.subject ?? '',
    text,
    links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
  };
}

/** The messages in DATA_DIR/outbox, oldest first. */
export async function outbox(dataDir: string): Promise<ReadMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => parseMail(await readFile(path.join(dir, n)))));
}

/** The newest message to `address`, or a clear failure. */
export async function lastMailTo(dataDir: string, address: string): Promise<ReadMail> {
  const mails = (await outbox(dataDir)).filter((m) => m.to.toLowerCase() === address.toLowerCase());
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no mail to ${address} in the outbox`);
  return mail;
}
