import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { proposalFiles, users } from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';

export type FileRow = typeof proposalFiles.$inferSelect;
export type NewFile = Omit<typeof proposalFiles.$inferInsert, 'id'>;

export async function insertFile(tx: Tx, file: NewFile): Promise<FileRow> {
  const [row] = await tx.insert(proposalFiles).values(file).returning();
  return row!;
}

/** A proposal's files with their uploaders' names, oldest first. */
export async function filesOf(tx: Tx, proposalId: number) {
  return tx
    .select({ file: proposalFiles, uploaderName: personNameSql(users) })
    .from(proposalFiles)
    .leftJoin(users, eq(users.id, proposalFiles.uploadedBy))
    .where(eq(proposalFiles.proposalId, proposalId))
    .orderBy(asc(proposalFiles.uploadedAt), asc(proposalFiles.id));
}

export async function findFile(tx: Tx, fileId: number): Promise<FileRow | undefined> {
  const [row] = await tx.select().from(proposalFiles).where(eq(proposalFiles.id, fileId));
  return row;
}

/** Deletes the file's row when it belongs to the proposal: its key and name, or undefined. */
export async function deleteFileRow(tx: Tx, proposalId: number, fileId: number) {
  const [row] = await tx
    .delete(proposalFiles)
    .where(and(eq(proposalFiles.id, fileId), eq(proposalFiles.proposalId, proposalId)))
    .returning({ storageKey: proposalFiles.storageKey, name: proposalFiles.name });
  return row;
}

/** The storage keys of a proposal's files, whose bytes go when the proposal does. */
export async function storageKeysOf(tx: Tx, proposalId: number): Promise<string[]> {
  const rows = await tx
    .select({ key: proposalFiles.storageKey })
    .from(proposalFiles)
    .where(eq(proposalFiles.proposalId, proposalId));
  return rows.map((r) => r.key);
}

/** How many files a proposal has. */
export async function fileCountOf(tx: Tx, proposalId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(proposalFiles)
    .where(eq(proposalFiles.proposalId, proposalId));
  return row?.n ?? 0;
}

/** The bytes of the stored files `userId` uploaded: what counts against their quota. */
export async function uploadedBytesOf(tx: Tx, userId: number): Promise<number> {
  const [row] = await tx
    .select({ bytes: sql<string>`coalesce(sum(${proposalFiles.size}), 0)::text` })
    .from(proposalFiles)
    .where(eq(proposalFiles.uploadedBy, userId));
  return Number(row?.bytes ?? 0);
}

/** Advisory locks' first key for the per-user upload quota (the second is the user's id). */
const UPLOAD_QUOTA_LOCK = 12_013;

/**
 * Holds `userId`'s upload quota until the transaction ends, so that two uploads of theirs
 * finishing at once (to different proposals, whose row locks do not meet) are counted
 * one after the other.
 */
export async function lockUploadQuota(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${UPLOAD_QUOTA_LOCK}::int, ${userId}::int)`);
}
