import { COMMITTEE_ROLES, GENDERS, PREFERENCES } from '@merit/domain';
import { z } from 'zod';
import { dateTime } from './common.js';

/** Answers as they were saved: the form's own field names and values. */
const answers = z.record(z.string(), z.unknown());
const named = z.object({ id: z.number().int(), name: z.string() });
const formRef = z.object({ name: z.string(), version: z.string() });

/**
 * GET /user_data/ (beyond the spec; ASVS V8.3.2): what Merit holds about the caller, as
 * one JSON file. Only the caller's own data: never other people's reviews, who reviewed
 * their proposals, other users' emails, or anything the rules hide from them.
 */
export const userDataExport = z
  .object({
    exported_at: dateTime,
    about: z.string(),
    profile: z.object({
      id: z.number().int(),
      username: z.string(),
      email: z.string(),
      /** A new address waiting for its confirmation link, if any. */
      pending_email: z.string().nullable(),
      first_name: z.string(),
      last_name: z.string(),
      institution: z.string(),
      gender: z.enum(GENDERS).nullable(),
      phone_number: z.string(),
      is_student: z.boolean(),
      is_admin: z.boolean(),
      is_active: z.boolean(),
      email_verified: z.boolean(),
      registration_complete: z.boolean(),
      is_aaf: z.boolean(),
      hash: z.string(),
      /** When the user accepted the privacy notice, if one was asked for. */
      privacy_consent_at: dateTime.nullable(),
      /** Their list of recent collaborators (My Account), for conflict detection. */
      recent_collaborators: z.array(z.object({ name: z.string(), email: z.string() })),
      created_at: dateTime,
      updated_at: dateTime,
    }),
    federated_logins: z.array(
      z.object({ issuer: z.string(), subject: z.string(), linked_at: dateTime }),
    ),
    roles: z.array(
      z.object({
        committee: named,
        role: z.enum(COMMITTEE_ROLES),
        commencement: dateTime,
        termination: dateTime,
        /** The member's expertise, for reviewer assignment. */
        facilities: z.array(z.string()),
        keywords: z.array(z.string()),
      }),
    ),
    /** Their bids on proposals they might review (neutral is no bid). */
    bids: z.array(
      z.object({ proposal: named, call: named, preference: z.enum(PREFERENCES), at: dateTime }),
    ),
    /** The caps they set for themselves on calls' reviews. */
    caps: z.array(z.object({ call: named, cap: z.number().int() })),
    proposals: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        call: named,
        /** The caller's part in it. */
        role: z.enum(['author', 'collaborator']),
        state: z.enum(['Draft', 'Submitted']),
        created_at: dateTime,
        updated_at: dateTime,
        /** The chairs' decision, once the call is closed (null before, or when none). */
        decision_summary: z.string().nullable(),
        answers: z.array(
          z.object({
            form: formRef,
            entry_index: z.number().int(),
            data: answers,
            updated_at: dateTime,
          }),
        ),
        /** The files' names, not their bytes (download them from the proposal). */
        files: z.array(
          z.object({
            name: z.string(),
            size: z.number().int(),
            content_type: z.string(),
            uploaded_at: dateTime,
          }),
        ),
      }),
    ),
    reviews: z.array(
      z.object({
        id: z.number().int(),
        proposal: named,
        call: named,
        score: z.number().nullable(),
        scores: z.array(z.object({ name: z.string(), value: z.number().nullable() })),
        created_at: dateTime,
        updated_at: dateTime,
        answers: z.array(z.object({ form: formRef, data: answers, updated_at: dateTime })),
      }),
    ),
    /** Each login: when it was made and last used, and when it ended; never its token. */
    sessions: z.array(
      z.object({ created_at: dateTime, last_used_at: dateTime, ended_at: dateTime.nullable() }),
    ),
    /** The person's security events as `security_events` keeps them (issue 28): 365 days. */
    security_events: z.object({
      stored_here: z.boolean(),
      note: z.string(),
      events: z
        .array(
          z.object({
            at: dateTime,
            event: z.string(),
            address: z.string().nullable(),
            details: z.record(z.string(), z.unknown()),
          }),
        )
        .optional(),
    }),
  })
  .meta({ id: 'UserDataExport' });
export type UserDataExport = z.infer<typeof userDataExport>;
