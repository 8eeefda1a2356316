import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { proposalFiles, users } from '../../db/schema.js';
import { personNameSql } from '../../lib/sql.js';

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
