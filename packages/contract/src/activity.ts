import { z } from 'zod';
import { AUDIT_ACTIONS } from '@merit/domain';
import { dateTime, dateTimeInput, entityId, idParam, MAX_PAGE_SIZE } from './common.js';

/*
 * History and Activity (issue 28): the audit log, and for administrators the security
 * log's events, as pages of rows.
 */

export const auditAction = z.enum(AUDIT_ACTIONS as [string, ...string[]]);

const person = z.object({ id: entityId, name: z.string() }).nullable();

/** One audit row as History and Activity show it. */
export const activityEntry = z
  .object({
    /** `audit-<id>` or, on the administrators' page, `security-<id>`. */
    key: z.string(),
    at: dateTime,
    /** An audit action (`proposal.submit`) or a security event (`login.succeeded`). */
    action: z.string(),
    /** The action in words. */
    label: z.string(),
    /** Who did it; null for Merit itself (a job) or an account since deleted. */
    actor: person,
    /** The person acted on, when there is one. */
    subject: person,
    callId: entityId.nullable(),
    proposalId: entityId.nullable(),
    proposalName: z.string().nullable(),
    /** Each changed field with its value before and after (values left out where the reader may not see them). */
    changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }).partial()),
    /** Administrators only: the request and the address it came from. */
    requestId: z.string().nullable().optional(),
    address: z.string().nullable().optional(),
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntry = z.infer<typeof activityEntry>;

const page = z.object({
  page: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/)
    .transform(Number)
    .default(1),
  pageSize: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/)
    .transform(Number)
    .pipe(z.number().max(MAX_PAGE_SIZE))
    .default(50),
});

/** GET /proposals/{proposalId}/history/: newest first. */
export const historyQuery = page;

/** GET /calls/{callId}/activity/ and GET /activity/: filters, newest first; `format=csv` for the whole filter as CSV. */
export const activityQuery = page.extend({
  user: idParam.optional(),
  action: z.string().max(60).optional(),
  proposal: idParam.optional(),
  from: dateTimeInput.optional(),
  to: dateTimeInput.optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

export const activityPage = z
  .object({
    items: z.array(activityEntry),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    /** Rows matching the filter. */
    total: z.number().int(),
    /** The people and actions the filter menus offer (those with rows here). */
    people: z.array(z.object({ id: entityId, name: z.string() })),
    actions: z.array(z.object({ action: z.string(), label: z.string() })),
  })
  .meta({ id: 'ActivityPage' });
export type ActivityPage = z.infer<typeof activityPage>;

/** The proposal's history: as a page, and whether the reader sees the plain timeline only. */
export const proposalHistory = z
  .object({
    items: z.array(activityEntry),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int(),
    /** `team`: the applicant's own timeline; `chair` or `admin`: everything they may see. */
    reader: z.enum(['admin', 'chair', 'team']),
  })
  .meta({ id: 'ProposalHistory' });
export type ProposalHistory = z.infer<typeof proposalHistory>;
