import { z } from 'zod';
import {
  MAX_REMINDER_BODY,
  MAX_REMINDER_OFFSET_HOURS,
  MAX_REMINDER_RULES,
  MAX_REMINDER_SUBJECT,
  REMINDER_ANCHORS,
  REMINDER_AUDIENCES,
  reminderMessages,
} from '@merit/domain';
import { dateTime, entityId } from './common.js';

/*
 * Reminders and the chair's review progress (issue 28), under /api/v1/calls/{callId}/
 * (`callIdParams` in calls.ts), and the caller's own reminders.
 */

export const reminderAudience = z.enum(REMINDER_AUDIENCES);
export const reminderAnchor = z.enum(REMINDER_ANCHORS);

/** One rule as the chair edits it; `id` absent for a new one. */
export const reminderRuleInput = z
  .object({
    id: entityId.optional(),
    audience: reminderAudience,
    anchor: reminderAnchor,
    /** Hours from the anchor: negative before it, positive after. */
    offsetHours: z.number().int().min(-MAX_REMINDER_OFFSET_HOURS).max(MAX_REMINDER_OFFSET_HOURS),
    enabled: z.boolean(),
    subject: z.string().trim().min(1).max(MAX_REMINDER_SUBJECT),
    body: z.string().trim().min(1).max(MAX_REMINDER_BODY),
  })
  .strict();
export type ReminderRuleInputBody = z.infer<typeof reminderRuleInput>;

export const reminderRule = z
  .object({
    id: entityId,
    audience: reminderAudience,
    anchor: reminderAnchor,
    offsetHours: z.number().int(),
    enabled: z.boolean(),
    subject: z.string(),
    body: z.string(),
    /**
     * When it is next due for the call as a whole (the call's deadline moved by the
     * offset; an applicant with an extension has their own), or null when it will not
     * go out again (off, past, or the call closed).
     */
    nextDueAt: dateTime.nullable(),
  })
  .meta({ id: 'ReminderRule' });
export type ReminderRuleBody = z.infer<typeof reminderRule>;

/** GET /calls/{callId}/reminders/: the rules in order, and the version a save starts from. */
export const reminderRules = z
  .object({ version: z.number().int(), rules: z.array(reminderRule) })
  .meta({ id: 'ReminderRules' });
export type ReminderRules = z.infer<typeof reminderRules>;

/**
 * PUT /calls/{callId}/reminders/: the whole list, in order, from `version`. Rules left out
 * are deleted. 409 `stale` (with `current`) when someone saved since; 400 with `fields`
 * keyed `rules.<n>.subject` (and body, offsetHours) for an unknown field in a text.
 */
export const reminderRulesSave = z
  .object({
    version: z.number().int(),
    rules: z.array(reminderRuleInput).max(MAX_REMINDER_RULES),
  })
  .strict();
export type ReminderRulesSave = z.infer<typeof reminderRulesSave>;

/** POST /calls/{callId}/reminders/send/: remind these members now, with the reviewers' text. */
export const remindNow = z
  .object({
    userIds: z.array(entityId).min(1, { error: reminderMessages.nobodySelected }).max(1000),
  })
  .strict();
export type RemindNow = z.infer<typeof remindNow>;

export const remindNowResult = z
  .object({
    /** Members mailed. */
    sent: z.array(entityId),
    /** Members chosen who have nothing to review: not mailed. */
    skipped: z.array(entityId),
  })
  .meta({ id: 'RemindNowResult' });
export type RemindNowResult = z.infer<typeof remindNowResult>;

// --- Progress ------------------------------------------------------------------------

export const memberProgress = z.object({
  userId: entityId,
  name: z.string(),
  username: z.string(),
  assigned: z.number().int(),
  saved: z.number().int(),
  notStarted: z.number().int(),
  overdue: z.number().int(),
  /** The last reminder of this call that went to them (any rule, or by hand). */
  lastReminded: dateTime.nullable(),
});
export type MemberProgress = z.infer<typeof memberProgress>;

export const proposalProgress = z.object({
  proposalId: entityId,
  name: z.string(),
  proposalTypeName: z.string(),
  reviewsSaved: z.number().int(),
  reviewsWanted: z.number().int(),
  scoreMin: z.number().nullable(),
  scoreMax: z.number().nullable(),
  scoreSd: z.number().nullable(),
  /** A reviewer declared a conflict with it after they were assigned. */
  lateConflict: z.boolean(),
});
export type ProposalProgress = z.infer<typeof proposalProgress>;

/**
 * GET /calls/{callId}/progress/ (chairs of the committee, admins). Submitted proposals
 * only; a chair's view leaves out proposals they are conflicted on or part of.
 */
export const callProgress = z
  .object({
    members: z.array(memberProgress),
    proposals: z.array(proposalProgress),
    totals: z.object({
      saved: z.number().int(),
      wanted: z.number().int(),
      withoutReview: z.number().int(),
      /** Proposals whose scores spread at least this much are marked for discussion. */
      wideSpread: z.number().nullable(),
    }),
    /** Reviews first saved per UTC day, oldest first, for the chart. */
    savesPerDay: z.array(z.object({ day: z.iso.date(), saves: z.number().int() })),
    reviewCommencement: dateTime,
    reviewTermination: dateTime,
    closed: z.boolean(),
  })
  .meta({ id: 'CallProgress' });
export type CallProgress = z.infer<typeof callProgress>;

// --- The caller's reminders (My Account) ----------------------------------------------

/** GET /my_reminders/: what the caller will be reminded of, and what was sent lately. */
export const myReminders = z
  .object({
    upcoming: z.array(
      z.object({
        callId: entityId,
        callName: z.string(),
        audience: reminderAudience,
        dueAt: dateTime,
        subject: z.string(),
        /** How many of their items it would list if it went out now. */
        items: z.number().int(),
      }),
    ),
    sent: z.array(
      z.object({
        callId: entityId,
        callName: z.string(),
        sentAt: dateTime,
        kind: z.enum(['rule', 'copy', 'manual']),
        items: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'MyReminders' });
export type MyReminders = z.infer<typeof myReminders>;
