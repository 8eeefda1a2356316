import type { z } from 'zod';
import { errorMessages, isApiError, type ApiError } from '../../api/client';
import { loadContract, type SchemaPicker } from '../../api/contract';

/**
 * A 409 `stale` (the contract's `errorCodes.stale`, written out: importing the contract
 * here would bring zod into every page that saves).
 */
export const isStale = (error: unknown): error is ApiError =>
  isApiError(error, 409) && error.body.code === 'stale';

/**
 * What is saved now, from a 409 `stale` (its `current`, in the route's shape): null when
 * the error is not one, or its `current` is not that shape (then it is shown as any error).
 */
export async function staleCurrent<S extends z.ZodType>(
  error: unknown,
  schema: SchemaPicker<S>,
): Promise<z.output<S> | null> {
  if (!isStale(error)) return null;
  const parsed = schema(await loadContract()).safeParse(error.body.current);
  return parsed.success ? parsed.data : null;
}

/**
 * The messages above an editor of a whole set (reminders, capacities, letter templates)
 * after Save: none for a stale save (its alert says it), the server's detail and the
 * problems its fields did not name for a 400 (`unplaced`), any other error as it is; and
 * before an answer, `needChanges` once Save was tried with problems in the fields.
 */
export function saveErrorMessages(
  error: unknown,
  unplaced: readonly string[] | null,
  needChanges: string | null,
): string[] {
  if (error) {
    if (isStale(error)) return [];
    if (unplaced && isApiError(error)) return [error.message, ...unplaced];
    return errorMessages(error);
  }
  return needChanges ? [needChanges] : [];
}
