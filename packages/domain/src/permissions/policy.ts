import type { CommitteeActor } from './committee.js';

/**
 * Why an action is refused, which also says how the server answers (ARCHITECTURE.md
 * "Errors"): `hidden` (404) when the caller may not even know the thing exists,
 * `forbidden` (403) when they see it but may not act, `conflict` (409) when they may act
 * in general but the thing's state forbids it now (a closed call, a held lock).
 */
export type Refusal =
  | { kind: 'hidden'; message: string }
  | { kind: 'forbidden'; message: string; code?: string }
  | { kind: 'conflict'; message: string; code?: string };

/** A rule's answer: allowed, or refused with its reason. */
export type Decision = true | Refusal;

export const hidden = (message: string): Refusal => ({ kind: 'hidden', message });
export const forbidden = (message: string, code?: string): Refusal =>
  code ? { kind: 'forbidden', message, code } : { kind: 'forbidden', message };
export const conflict = (message: string, code?: string): Refusal =>
  code ? { kind: 'conflict', message, code } : { kind: 'conflict', message };

/**
 * One rule of a policy: a function of plain data and `now`, never of a database, so a
 * list can decide every row without a query per row and tests need no database.
 */
export type Rule<R> = (actor: CommitteeActor, resource: R, now: Date) => Decision;

/** The named actions on one kind of resource, each with its rule. */
export type Policy<R> = Readonly<Record<string, Rule<R>>>;

/**
 * Declares the policy of one kind of resource: `definePolicy<CallResource>()({ edit: ... })`.
 * Every rule gets the full `Rule<R>` type, so the resource type can be read back from
 * the policy (`authorize` checks that the resource passed fits the action).
 */
export function definePolicy<R>() {
  return <const A extends string>(rules: Record<A, Rule<R>>): Readonly<Record<A, Rule<R>>> => rules;
}

/**
 * What the actor may do with the resource, one boolean per action of the policy: the
 * `abilities` every response carries, so the web app shows what the server would allow.
 */
export function abilitiesOf<P extends Policy<R>, R>(
  policy: P,
  actor: CommitteeActor,
  resource: R,
  now: Date,
): { [A in keyof P]: boolean } {
  const abilities = {} as { [A in keyof P]: boolean };
  for (const action of Object.keys(policy) as (keyof P)[]) {
    abilities[action] = policy[action]!(actor, resource, now) === true;
  }
  return abilities;
}

/** Runs several rules in order and returns the first refusal, or true. */
export function allOf(...decisions: (() => Decision)[]): Decision {
  for (const decide of decisions) {
    const decision = decide();
    if (decision !== true) return decision;
  }
  return true;
}
