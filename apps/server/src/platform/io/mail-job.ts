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
