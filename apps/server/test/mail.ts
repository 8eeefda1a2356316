import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import type { App } from '../src/app.js';

/** A test app and its DATA_DIR, whose outbox the mails are written to. */
interface MailContext {
  app: App;
  dataDir: string;
}

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

/**
 * The messages in DATA_DIR/outbox, oldest first, once every mail job queued so far has
 * run (mail goes out after the request's transaction commits, not during the request).
 */
export async function outbox({ app, dataDir }: MailContext): Promise<ReadMail[]> {
  await app.jobs.drain();
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (n) => parseMail(await readFile(path.join(dir, n)))));
}

/** The newest message to `address`, or a clear failure. */
export async function lastMailTo(context: MailContext, address: string): Promise<ReadMail> {
  const mails = (await outbox(context)).filter((m) => m.to.toLowerCase() === address.toLowerCase());
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no mail to ${address} in the outbox`);
  return mail;
}
