import { messages } from '@merit/domain';
import type { FastifyInstance } from 'fastify';
import { invalid, notFound } from './http-errors.js';
import { NON_FIELD } from './errors.js';

export const unstorableTextMessage =
  'This text contains a character that cannot be stored: a NUL character (U+0000) or half of a Unicode surrogate pair. Remove it and try again.';

/** Text PostgreSQL and JSON can hold: no NUL, no lone UTF-16 surrogate. */
const isStorable = (text: string) => !text.includes('\u0000') && text.isWellFormed();

/** Enough paths to show a person where to look, few enough to keep the answer small. */
const MAX_REPORTED = 20;

/**
 * The paths (`a.b.0.c`, as the validation errors name fields) of every string, or object
 * key, in `value` that PostgreSQL could not store. Walks with its own stack, so a deeply
 * nested body cannot overflow the call stack.
 */
export function unstorableTextPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (!isStorable(item)) found.push(path);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorable(key)) found.push(path);
        else stack.push([child, childPath]);
      }
    }
  }
  return found;
}

/** How deeply objects and arrays may nest in a body: far more than any form needs. */
export const MAX_NESTING = 100;

export const tooDeepMessage = `This value is nested too deeply: at most ${MAX_NESTING} levels of objects and arrays.`;

/**
 * The path of the first object or array in `value` that sits deeper than MAX_NESTING
 * levels, or null. A deeper body would overflow the call stack later (JSON.stringify on
 * the way to a jsonb column, a schema validator), a 500 instead of a 400. Walks with its
 * own stack, and stops at the limit.
 */
export function tooDeepPath(value: unknown): string | null {
  const stack: [unknown, string, number][] = [[value, '', 1]];
  while (stack.length > 0) {
    const [item, path, level] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (level > MAX_NESTING) return path;
    for (const [key, child] of Object.entries(item))
      stack.push([child, path ? `${path}.${key}` : key, level + 1]);
  }
  return null;
}

/**
 * One guard for every route, so a route added later cannot forget it: a NUL character or
 * a lone surrogate anywhere in the body or query, or a body nested deeper than
 * MAX_NESTING, is a 400 with a message on the field,
 * instead of a 500 from the database (PostgreSQL text cannot hold U+0000, and JSON with
 * a lone surrogate fails in jsonb). In the path it is a 404: nothing lives at such an
 * address, as for any other malformed id.
 */
export function registerInputGuard(scope: FastifyInstance): void {
  scope.addHook('preValidation', async (request) => {
    if (unstorableTextPaths(request.params).length > 0) throw notFound(messages.notFoundApi);
    const tooDeep = tooDeepPath(request.body);
    if (tooDeep !== null)
      throw invalid({ [tooDeep || NON_FIELD]: [tooDeepMessage] }, messages.validationFailed);
    const paths = [...unstorableTextPaths(request.query), ...unstorableTextPaths(request.body)];
    if (paths.length === 0) return;
    const fields: Record<string, string[]> = {};
    for (const path of paths) fields[path || NON_FIELD] = [unstorableTextMessage];
    throw invalid(fields, messages.validationFailed);
  });
}
