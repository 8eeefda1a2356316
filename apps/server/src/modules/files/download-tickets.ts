import { DOWNLOAD_TICKET_TTL_MS } from '@merit/domain';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { downloadTickets } from '../../db/schema.js';
import { digestKey, newTokenKey } from '../../platform/security/secrets.js';

/** What a ticket opens: a proposal's file, its PDF, or a decision letter's PDF (issue 29). */
export type TicketKind = 'file' | 'extract' | 'letter';

/**
 * A single-use download link for `userId`: the web app asks for one and opens it, so the
 * long-lived auth token never stands in a URL (browser history, proxy logs). Only the
 * ticket's digest is stored; it works once, within DOWNLOAD_TICKET_TTL_MS.
 */
export async function issueTicket(
  tx: Tx,
  ticket: { userId: number; kind: TicketKind; targetId: number },
  now: Date,
): Promise<{ ticket: string; expires: Date }> {
  const key = newTokenKey();
  const expires = new Date(now.getTime() + DOWNLOAD_TICKET_TTL_MS);
  // Tickets past their time are of no use to anyone: the new one clears them away.
  await tx.delete(downloadTickets).where(lte(downloadTickets.expiresAt, now));
  await tx.insert(downloadTickets).values({
    ticketHash: digestKey(key),
    userId: ticket.userId,
    kind: ticket.kind,
    targetId: ticket.targetId,
    expiresAt: expires,
  });
  return { ticket: key, expires };
}

/**
 * Uses up a ticket for `kind` and `targetId`: the user it was made for, or null when it
 * is unknown, for something else, expired or used already. Deleted in the same
 * statement that finds it, so two requests with one ticket cannot both succeed.
 */
export async function redeemTicket(
  tx: Tx,
  ticket: string,
  kind: TicketKind,
  targetId: number,
  now: Date,
): Promise<number | null> {
  const [row] = await tx
    .delete(downloadTickets)
    .where(
      and(
        eq(downloadTickets.ticketHash, digestKey(ticket)),
        eq(downloadTickets.kind, kind),
        eq(downloadTickets.targetId, targetId),
        gt(downloadTickets.expiresAt, now),
      ),
    )
    .returning({ userId: downloadTickets.userId });
  return row?.userId ?? null;
}
