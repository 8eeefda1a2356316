import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config/config.js';

export interface Mail {
  to: string;
  /** Others who receive it in copy (a decision letter's collaborators). */
  cc?: string[];
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Mail goes over SMTP when SMTP_URL is set. Otherwise each message is written as an
 * .eml file under DATA_DIR/outbox and the file's name is logged, so an installation with
 * no mail server still lets people verify accounts and reset passwords (whoever runs it
 * opens the file). Logs never hold a mail's links: they carry live tokens.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({
          from: config.mailFrom,
          to: mail.to,
          cc: mail.cc,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  // Mails written in one millisecond keep the order they were sent in: names sort by time,
  // then by this process's count, then a random part so that processes never collide.
  let written = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: mail.to,
        cc: mail.cc,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      written += 1;
      const sequence = String(written).padStart(8, '0');
      const file = path.join(outbox, `${stamp}-${sequence}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A plain message with one call to action, as text and as simple HTML. */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  action: string;
  link: string;
  footer: string;
}): Mail {
  const text = [
    input.greeting,
    '',
    ...input.lines,
    '',
    `${input.action}: ${input.link}`,
    '',
    input.footer,
    '',
    'Merit',
  ].join('\n');
  const html = [
    `<p>${escapeHtml(input.greeting)}</p>`,
    ...input.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(input.action)}</a></p>`,
    `<p>${escapeHtml(input.footer)}</p>`,
    '<p>Merit</p>',
  ].join('\n');
  return { to: input.to, subject: input.subject, text, html };
}
