import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { expect } from '../fixtures';
import { e2eEnv } from '../env';

/**
 * The server under test has no SMTP_URL, so it writes each mail it sends to
 * <DATA_DIR>/outbox/<ISO time>-<random>.eml. Journeys read their links there, as a
 * person would read them in their inbox.
 */
export interface OutboxMail {
  /** The .eml file's name; names sort in the order the mails were written. */
  file: string;
  to: string;
  subject: string;
  text: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
}

export interface MailQuery {
  to: string;
  subject: string | RegExp;
}

/** Every mail in the outbox of the server at `dataDir`, oldest first. */
export async function readOutbox(dataDir = e2eEnv('dataDir')): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.eml'))
    .sort();
  return Promise.all(
    names.map(async (file) => {
      const email = await PostalMime.parse(await readFile(path.join(dir, file)));
      const text = email.text ?? '';
      return {
        file,
        to: email.to?.map((address) => address.address).join(', ') ?? '',
        subject: email.subject ?? '',
        text,
        links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => match[0]),
      };
    }),
  );
}

function matches(mail: OutboxMail, query: MailQuery): boolean {
  if (mail.to.toLowerCase() !== query.to.toLowerCase()) return false;
  return typeof query.subject === 'string'
    ? mail.subject === query.subject
    : query.subject.test(mail.subject);
}

/**
 * The newest mail to `query.to` with that subject, waiting for it to arrive (the
 * server writes it before it answers, but a journey should not rely on that).
 */
export async function waitForMail(
  query: MailQuery,
  { dataDir = e2eEnv('dataDir'), timeout = 10_000 } = {},
): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readOutbox(dataDir)).filter((mail) => matches(mail, query)).at(-1);
        return found !== undefined;
      },
      {
        message: `a mail to ${query.to} with the subject ${String(query.subject)} in ${dataDir}/outbox`,
        timeout,
      },
    )
    .toBe(true);
  return found!;
}

/**
 * The one link in the mail that points at the server under test. A link to anywhere
 * else (a PUBLIC_URL the server was not given, say) fails here, with the mail's text.
 */
export function linkToServer(mail: OutboxMail, baseUrl: string): string {
  const ours = mail.links.filter((link) => link.startsWith(`${baseUrl}/`));
  expect(
    ours,
    `one link to ${baseUrl} in the mail "${mail.subject}" (${mail.file}):\n${mail.text}`,
  ).toHaveLength(1);
  return ours[0]!;
}
