import {
  decide,
  type Action,
  type CommitteeActor,
  type Refusal,
  type ResourceOf,
} from '@merit/domain';
import { conflict, forbidden, HttpError, notFound } from './http-errors.js';

/** The answer a refusal gets: 404 hidden, 403 forbidden, 409 conflict (ARCHITECTURE.md "Errors"). */
export function refusalError(refusal: Refusal): HttpError {
  switch (refusal.kind) {
    case 'hidden':
      return notFound(refusal.message);
    case 'forbidden':
      return refusal.code
        ? new HttpError(403, refusal.code, refusal.message)
        : forbidden(refusal.message);
    case 'conflict':
      return refusal.code
        ? new HttpError(409, refusal.code, refusal.message)
        : conflict(refusal.message);
  }
}

/**
 * The server's one checkpoint: decides `action` with the domain's policy table (the same
 * rules the web app receives as `abilities`) and throws the refusal as an HTTP error.
 */
export function authorize<A extends Action>(
  actor: CommitteeActor,
  action: A,
  resource: ResourceOf<A>,
  now: Date,
): void {
  const decision = decide(action, actor, resource, now);
  if (decision !== true) throw refusalError(decision);
}
