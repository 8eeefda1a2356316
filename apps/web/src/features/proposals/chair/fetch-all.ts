import type { CallProposal } from '@merit/contract';
import { fetchCallProposals } from '../proposals.api';

/** The most rows the server gives in one page. */
export const EXPORT_PAGE_SIZE = 100;
/** Pages asked for at once after the first, which says how many there are. */
const AT_ONCE = 4;

export interface AllProposals {
  items: CallProposal[];
  facilities: string[];
}

/**
 * Every proposal of the call the chair sees, for the downloads: page after page of 100
 * in the server's name order, `onProgress(loaded, total)` after each.
 */
export async function fetchAllProposals(
  callId: number,
  onProgress: (loaded: number, total: number) => void,
): Promise<AllProposals> {
  const query = (page: number) => ({ page, pageSize: EXPORT_PAGE_SIZE, sort: 'name', q: '' });
  const first = await fetchCallProposals(callId, query(1));
  const pages: CallProposal[][] = [first.items];
  let loaded = first.items.length;
  onProgress(loaded, first.total);
  const count = Math.ceil(first.total / EXPORT_PAGE_SIZE);
  for (let start = 2; start <= count; start += AT_ONCE) {
    const numbers = Array.from(
      { length: Math.min(AT_ONCE, count - start + 1) },
      (_, i) => start + i,
    );
    const answers = await Promise.all(
      numbers.map((page) => fetchCallProposals(callId, query(page))),
    );
    for (const [i, answer] of answers.entries()) {
      pages[numbers[i]! - 1] = answer.items;
      loaded += answer.items.length;
    }
    onProgress(loaded, first.total);
  }
  // A proposal added or deleted between pages may shift one across: each once.
  const seen = new Set<number>();
  const items = pages.flat().filter((row) => !seen.has(row.id) && (seen.add(row.id), true));
  return { items, facilities: first.facilities ?? [] };
}
