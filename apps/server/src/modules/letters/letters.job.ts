import { isDeletedAccountEmail } from '@merit/domain';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { decisionLetters } from '../../db/schema.js';
import { enqueueJob } from '../../platform/data/jobs.js';
import type { App } from '../../platform/http/app-types.js';
import { SEND_MAIL_JOB } from '../../platform/io/mail-job.js';
import type { Mail } from '../../platform/io/mailer.js';
import { newStorageKey, PdfWorkerPool } from '../files/files-access.js';
import { letterPdf } from './letter-pdf.js';
import { letterForJob, recipientsOf } from './letters.queries.js';
import { SEND_LETTER_JOB, type SendLetter } from './letters.service.js';

/*
 * The job of one decision letter (issue 29): makes its PDF, stores it where the proposals'
 * files are, and mails the letter to the proposal's author with its collaborators in copy,
 * once. Several app processes share the jobs, and a job may run again (a retry, or a
 * failed letter queued again by a chair while its first job still waits to retry): the
 * letter's row decides. The mail is queued in the transaction that moves the letter from
 * queued (or failed) to sent, `UPDATE ... WHERE state IN ('queued', 'failed')`, whose row
 * lock makes any other run of it wait and then find it sent, so it queues nothing. A
 * letter that failed is one whose PDF could not be made or stored.
 */

const SENDABLE = ['queued', 'failed'] as const;

export function registerLetterJob(app: App): void {
  // The letters' PDFs render in a worker thread (letter-pdf.ts). One is all the job runner
  // can use, as it runs its jobs one at a time; a pool of their own, not the extracts', so
  // a release's thousands of letters and a chair's extract never wait on each other.
  const pdfWorkers = new PdfWorkerPool(1);
  app.addHook('onClose', () => pdfWorkers.close());
  app.jobs.handle<SendLetter>(SEND_LETTER_JOB, async ({ letterId }, { db, now }) => {
    const found = await letterForJob(db, letterId);
    // Sent already, superseded by a corrected one, or its proposal deleted: nothing to do.
    if (!found || !(SENDABLE as readonly string[]).includes(found.letter.state)) return;
    const { letter } = found;
    const sendable = and(
      eq(decisionLetters.id, letter.id),
      inArray(decisionLetters.state, SENDABLE),
    );
    try {
      if (!letter.storageKey) {
        const pdf = await letterPdf(
          {
            committeeName: found.committeeName,
            subject: letter.subject,
            html: letter.bodyHtml,
            date: letter.createdAt,
          },
          { pool: pdfWorkers },
        );
        const key = newStorageKey();
        await app.files.write(key, pdf);
        const [kept] = await db
          .update(decisionLetters)
          .set({ storageKey: key })
          .where(and(eq(decisionLetters.id, letter.id), isNull(decisionLetters.storageKey)))
          .returning({ id: decisionLetters.id });
        // Another run stored its PDF first: one PDF per letter is kept.
        if (!kept) await app.files.delete(key);
      }
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(decisionLetters)
          .set({ state: 'sent', sentAt: now, error: null })
          .where(sendable)
          .returning({ id: decisionLetters.id });
        if (!claimed) return;
        // Deleted accounts' stand-in addresses take no mail (as SEND_MAIL_JOB drops them).
        const { to, cc } = await recipientsOf(tx, letter.proposalId);
        const addresses = [...(to ? [to] : []), ...cc].filter(
          (address) => !isDeletedAccountEmail(address),
        );
        const [first, ...copies] = addresses;
        if (!first) return;
        // Queued in the transaction that marks it sent, as every mail is (ARCHITECTURE.md
        // "Mail after commit"): it goes out once that commits, retried by the mail job, and
        // no transaction waits on the mail server.
        await enqueueJob(
          tx,
          SEND_MAIL_JOB,
          {
            to: first,
            ...(copies.length ? { cc: copies } : {}),
            subject: letter.subject,
            text: letter.bodyText,
            html: letter.bodyHtml,
          } satisfies Mail,
          now,
        );
      });
    } catch (error) {
      // The chairs see why; the runner tries it again later (jobs.ts), and a chair may too.
      const message = error instanceof Error ? error.message : String(error);
      await db
        .update(decisionLetters)
        .set({ state: 'failed', error: message.slice(0, 2000) })
        .where(sendable);
      throw error;
    }
  });
}
