import { callPolicy, committeePolicy, globalPolicy } from '../calls/call.policy.js';
import { filePolicy } from '../files/file.policy.js';
import { proposalPolicy } from '../proposals/proposal.policy.js';
import type { CommitteeActor } from './committee.js';
import type { Decision, Rule } from './policy.js';

/**
 * Every policy by the name of its resource: the one table the server enforces through
 * `authorize` and sends as `abilities`. Proposals, files and reviews add theirs here.
 */
export const policies = {
  call: callPolicy,
  committee: committeePolicy,
  global: globalPolicy,
  proposal: proposalPolicy,
  file: filePolicy,
} as const;

type Policies = typeof policies;

/** Every action, as `<resource>.<action>`: `call.close`, `committee.createCall`. */
export type Action = {
  [P in keyof Policies]: `${P}.${keyof Policies[P] & string}`;
}[keyof Policies];

type ResourceOfPolicy<P> = P extends Readonly<Record<string, Rule<infer R>>> ? R : never;

/** The resource an action's rule reads. */
export type ResourceOf<A extends Action> = A extends `${infer P extends keyof Policies}.${string}`
  ? ResourceOfPolicy<Policies[P]>
  : never;

/** Decides one action for one actor on one resource at `now`. */
export function decide<A extends Action>(
  action: A,
  actor: CommitteeActor,
  resource: ResourceOf<A>,
  now: Date,
): Decision {
  const [policyName, actionName] = action.split('.') as [keyof Policies, string];
  const rule = (policies[policyName] as Record<string, (...args: unknown[]) => Decision>)[
    actionName
  ];
  if (!rule) throw new Error(`No rule for the action ${action}.`);
  return rule(actor, resource, now);
}
