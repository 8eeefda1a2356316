import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Mail } from './mailer.js';
import type { Work } from '../data/work.js';

/**
 * The job that sends one finished mail after the change it reports has committed
 * (receipts, notes). Its text waits in the jobs table until it is sent, so it is only for
 * mails that hold no secret: mails with a live link (verification, password reset) make
 * their keys in their own job, when they are sent (accounts.jobs.ts).
 */
export const SEND_MAIL_JOB = 'mail.send';

/** Queues `mail` in the unit of work's transaction: it goes out once that has committed. */
export const enqueueMail = (work: Pick<Work, 'enqueue'>, mail: Mail) =>
  work.enqueue(SEND_MAIL_JOB, mail);

/**
 * Queues finished mails, however many, in one statement: a batch that mails hundreds of
 * people (Apply of a proposed assignment) would otherwise hold its locks through an
 * INSERT per mail. Resolves with how many were queued.
 */
export const enqueueMailList = (work: Pick<Work, 'enqueueEach'>, mails: readonly Mail[]) =>
  mails.length === 0
    ? Promise.resolve(0)
    : work.enqueueEach(
        SEND_MAIL_JOB,
        sql`select value from jsonb_array_elements(${JSON.stringify(mails)}::jsonb) with ordinality as m(value, n) order by n`,
      );

/** The recipients of `enqueueMails`: a query, and the text columns it gives each row. */
export interface MailRows<C extends string> {
  query: SQL;
  columns: readonly C[];
}

/** escapeHtml of mailer.ts in SQL: `&` first, so nothing is escaped twice. */
const htmlEscaped = (value: SQL) =>
  sql`replace(replace(replace(replace(replace(${value}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;

/**
 * Queues one mail per row of `rows`, in one INSERT ... SELECT, for a change that mails
 * many people at once (closing a call): a statement per mail would hold the change's locks
 * while they run. `render` is the mail's own function, called once here with a placeholder
 * for each column; each row's values take their places in SQL, HTML-escaped where `render`
 * escaped them. So every mail is the one `render` would write for its row, from one template.
 */
export async function enqueueMails<C extends string>(
  work: Pick<Work, 'enqueueEach'>,
  rows: MailRows<C>,
  render: (row: Record<C, string>) => Mail,
): Promise<number> {
  // A random tag, so no text of the mail can pass for a placeholder, and `&` in each one:
  // escaped (`&amp;`) where the HTML part escaped the value.
  const tag = randomBytes(6).toString('hex');
  const placeholders = Object.fromEntries(
    rows.columns.map((column, i) => [column, `\u{E000}${tag}&${i}\u{E001}`]),
  ) as Record<C, string>;
  const placeholder = new RegExp(`\u{E000}${tag}(&|&amp;)(\\d+)\u{E001}`, 'gu');
  const mail = render(placeholders);
  const field = (text: string): SQL => {
    const parts: SQL[] = [];
    let at = 0;
    for (const match of text.matchAll(placeholder)) {
      parts.push(sql`${text.slice(at, match.index)}::text`);
      const value = sql`r.${sql.identifier(rows.columns[Number(match[2])]!)}`;
      parts.push(match[1] === '&' ? value : htmlEscaped(value));
      at = match.index + match[0].length;
    }
    parts.push(sql`${text.slice(at)}::text`);
    if (text.replace(placeholder, '').includes(tag))
      throw new Error('The mail changes a value it is given, so it cannot be written in SQL.');
    return sql`concat(${sql.join(parts, sql`, `)})`;
  };
  const payload = sql.join(
    Object.entries(mail).map(([key, text]) => sql`${key}::text, ${field(text)}`),
    sql`, `,
  );
  return work.enqueueEach(
    SEND_MAIL_JOB,
    sql`select jsonb_build_object(${payload}) from (${rows.query}) as r`,
  );
}
