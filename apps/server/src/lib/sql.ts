import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A search typed into a box, for LIKE: `%` and `_` mean themselves, not wildcards. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `%text%` for ILIKE: rows whose column contains the search anywhere, whatever the case. */
export const containing = (text: string) => `%${escapeLike(text)}%`;

/** The domain's `personName` in SQL, for lists that sort and search by it. */
export const personNameSql = (table: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  username: AnyPgColumn;
}) =>
  sql<string>`coalesce(nullif(trim(${table.firstName} || ' ' || ${table.lastName}), ''), ${table.username})`;
