import { sql } from 'drizzle-orm';
import type {
  ConflictEvidence,
  ConflictSource,
  ConflictState,
  ConflictType,
  Outcome,
  Preference,
  ReminderAnchor,
  ReminderAudience,
} from '@merit/domain';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: varchar('username', { length: 150 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    firstName: varchar('first_name', { length: 30 }).notNull().default(''),
    lastName: varchar('last_name', { length: 30 }).notNull().default(''),
    institution: varchar('institution', { length: 100 }).notNull().default(''),
    gender: varchar('gender', { length: 10 }),
    phoneNumber: varchar('phone_number', { length: 30 }).notNull().default(''),
    isStudent: boolean('is_student').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    registrationComplete: boolean('registration_complete').notNull().default(true),
    isAaf: boolean('is_aaf').notNull().default(false),
    /** The collaborator hash (spec section 3): 10 characters, unique. */
    hash: varchar('hash', { length: 10 }).notNull(),
    /** Their recent collaborators, kept on My Account, for conflict detection. */
    recentCollaborators: jsonb('recent_collaborators')
      .$type<{ name: string; email: string }[]>()
      .notNull()
      .default([]),
    /** Argon2id PHC string; null for federated users, who have no usable password. */
    passwordHash: text('password_hash'),
    /**
     * When the user accepted the operator's privacy notice (PRIVACY_NOTICE_URL) at
     * registration; null when no notice was set then, or for accounts made before.
     */
    privacyConsentAt: timestamp('privacy_consent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Usernames and emails are unique whatever their case.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_hash_idx').on(t.hash),
    check('users_gender_check', sql`${t.gender} in ('MALE', 'FEMALE', 'OTHER')`),
  ],
);

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the key, hex; the key itself is never stored. */
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The User-Agent header the login came with, cut to USER_AGENT_MAX_LENGTH: the session
     * list names the browser and system from it. Null for tokens issued before it was kept.
     */
    userAgent: varchar('user_agent', { length: 512 }),
    /** How the login was made (LoginMethod: `password`, `password_totp`, ...); null when not known. */
    loginMethod: varchar('login_method', { length: 32 }),
  },
  (t) => [
    uniqueIndex('auth_tokens_key_hash_idx').on(t.keyHash),
    index('auth_tokens_user_idx').on(t.userId),
  ],
);

export const committees = pgTable(
  'committees',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: varchar('name', { length: 100 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('committees_name_lower_idx').on(sql`lower(${t.name})`)],
);

export const committeeRoles = pgTable(
  'committee_roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    committeeId: integer('committee_id')
      .notNull()
      .references(() => committees.id, { onDelete: 'restrict' }),
    role: varchar('role', { length: 10 }).notNull(),
    commencement: timestamp('commencement', { withTimezone: true }).notNull(),
    termination: timestamp('termination', { withTimezone: true }).notNull(),
    /** The member's expertise, for assignment: facilities they know and keywords. */
    facilities: jsonb('facilities').$type<string[]>().notNull().default([]),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index('committee_roles_user_idx').on(t.userId),
    index('committee_roles_committee_idx').on(t.committeeId),
    check('committee_roles_role_check', sql`${t.role} in ('CHAIR', 'MEMBER')`),
    check('committee_roles_dates_check', sql`${t.termination} >= ${t.commencement}`),
  ],
);

/** Single-use keys mailed to confirm an address: a new account's, or a changed email. */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    /** The address being confirmed; differs from the user's while an email change is pending. */
    email: varchar('email', { length: 254 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_confirmations_key_hash_idx').on(t.keyHash),
    index('email_confirmations_user_idx').on(t.userId),
  ],
);

/** Single-use password reset tokens; all of a user's die when the password changes. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_resets_token_hash_idx').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId),
  ],
);

/** Captcha challenges already solved once, so a solution cannot be replayed. */
export const captchaUses = pgTable(
  'captcha_uses',
  {
    challengeId: varchar('challenge_id', { length: 200 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_uses_expires_idx').on(t.expiresAt)],
);

/**
 * Login attempt counters (platform/security/login-throttle.ts): one row per bucket, a username or a
 * username with a client address. A window starts at the first attempt and lasts
 * 15 minutes; the count is raised in the same statement that reads it, so the limits
 * hold whatever the concurrency and across app processes.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    bucket: varchar('bucket', { length: 400 }).primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [index('login_throttle_window_idx').on(t.windowStart)],
);

/** Fixed-window request counters, shared by every app process through the database. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: varchar('bucket', { length: 200 }).notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/**
 * Counts of the events that signal an attack or a fault (ops/alerts.ts), per kind and
 * fixed window. Each process counts in memory and adds its counts here every few
 * seconds, so the processes' counts add up and a normal request writes nothing.
 */
export const alertCounts = pgTable(
  'alert_counts',
  {
    kind: varchar('kind', { length: 40 }).notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.windowStart] })],
);

/**
 * The alerts raised: one row per kind and hour, inserted in the transaction that queues
 * the mails, so whichever process passes the threshold first alerts and no other does.
 */
export const alertsRaised = pgTable(
  'alerts_raised',
  {
    kind: varchar('kind', { length: 40 }).notNull(),
    hourStart: timestamp('hour_start', { withTimezone: true }).notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.hourStart] })],
);

/** Secrets the processes must share (the captcha signing key), made once on first start. */
export const appSecrets = pgTable('app_secrets', {
  name: varchar('name', { length: 100 }).primaryKey(),
  value: text('value').notNull(),
});

/** A federated login (issuer, subject) and the account it logs into. Never matched by email. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: varchar('issuer', { length: 500 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_idx').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/** An OpenID Connect login under way: what the callback must find to accept the answer. */
export const oidcStates = pgTable('oidc_states', {
  state: varchar('state', { length: 100 }).primaryKey(),
  nonce: varchar('nonce', { length: 100 }).notNull(),
  codeVerifier: varchar('code_verifier', { length: 200 }).notNull(),
  /** Where the web app goes after logging in. */
  next: varchar('next', { length: 2000 }).notNull(),
  /** Set when a logged-in user links a federated login to their account. */
  linkUserId: integer('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Short-lived single-use codes that carry a federated login to the web app, which
 * exchanges one for a token, so a long-lived token never appears in a URL.
 */
export const loginCodes = pgTable('login_codes', {
  codeHash: varchar('code_hash', { length: 64 }).primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** A form name (spec section 3): the named, typed family that forms are versions of. */
export const formNames = pgTable(
  'form_names',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Fixed once created, like the type. */
    name: varchar('name', { length: 200 }).notNull(),
    displayName: varchar('display_name', { length: 200 }).notNull(),
    /** The form type, 0 to 5 (packages/domain forms/form-types.ts). */
    type: integer('type').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('form_names_name_lower_idx').on(sql`lower(${t.name})`),
    check('form_names_type_check', sql`${t.type} between 0 and 5`),
  ],
);

/** A form definition: a JSON schema, UI schema and options under a form name and version. */
export const forms = pgTable(
  'forms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    formNameId: integer('form_name_id')
      .notNull()
      .references(() => formNames.id, { onDelete: 'restrict' }),
    version: varchar('version', { length: 20 }).notNull(),
    // `json`, not `jsonb`: jsonb reorders object keys, and a schema's property order is
    // the order its fields appear in the form. These are read whole, never queried into.
    jsonSchema: json('json_schema').$type<Record<string, unknown>>().notNull(),
    uiSchema: json('ui_schema').$type<Record<string, unknown>>().notNull(),
    initialData: json('initial_data').$type<Record<string, unknown>>(),
    /** Null for types without options; see packages/domain forms/form-options.ts. */
    options: json('options').$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [
    // One form per version of a name, so "Team 1.0" always means one definition.
    uniqueIndex('forms_form_name_version_idx').on(t.formNameId, sql`lower(${t.version})`),
  ],
);

/**
 * The save hash of a Save All batch's audit row (`changes.hash.after`), as
 * `audit_log_entity_batch_idx` indexes it and `addToAuditBatch` looks it up: the two must be
 * the same expression for PostgreSQL to use the index.
 */
export const auditBatchHash = (changes: AnyPgColumn) => sql`(${changes} -> 'hash' -> 'after')`;

/**
 * Who changed what, written in the same transaction as the change (platform/data/audit.ts).
 * `changes` holds each changed field with its value before and after, capped in size.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Null once the acting user is deleted; the row outlives them. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** `<entity>.<verb>`, e.g. `role.create`, `user.deactivate`. */
    action: varchar('action', { length: 50 }).notNull(),
    entityType: varchar('entity_type', { length: 50 }).notNull(),
    entityId: integer('entity_id').notNull(),
    /** `{ field: { before, after } }`; a creation has no `before`, a deletion no `after`. */
    changes: jsonb('changes')
      .$type<Record<string, { before?: unknown; after?: unknown }>>()
      .notNull(),
    /**
     * The call and the proposal the change concerns (History and Activity, issue 28). No
     * foreign keys: the record outlives what it describes.
     */
    callId: integer('call_id'),
    proposalId: integer('proposal_id'),
    /** The person acted on (a role's holder, a reviewer assigned, an account deactivated). */
    subjectUserId: integer('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The request that made the change (its log lines carry the same id); null for jobs. */
    requestId: varchar('request_id', { length: 64 }),
    /** The acting person's address, as the request's log has it; null for jobs. */
    address: varchar('address', { length: 64 }),
  },
  (t) => [
    // An entity's rows, and among them a Save All batch's row by its hash (`addToAuditBatch`).
    index('audit_log_entity_batch_idx').on(t.entityType, t.entityId, auditBatchHash(t.changes)),
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorId),
    index('audit_log_call_idx').on(t.callId, t.at),
    index('audit_log_proposal_idx').on(t.proposalId, t.at),
  ],
);

export const calls = pgTable(
  'calls',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    committeeId: integer('committee_id')
      .notNull()
      .references(() => committees.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 255 }).notNull(),
    commencement: timestamp('commencement', { withTimezone: true }).notNull(),
    termination: timestamp('termination', { withTimezone: true }).notNull(),
    reviewCommencement: timestamp('review_commencement', { withTimezone: true }).notNull(),
    reviewTermination: timestamp('review_termination', { withTimezone: true }).notNull(),
    /** Set at creation only: any committee member may review, not just assigned reviewers. */
    isReviewOpen: boolean('is_review_open').notNull().default(false),
    closed: boolean('closed').notNull().default(false),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Sanitised HTML. */
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastModified: timestamp('last_modified', { withTimezone: true }).notNull(),
    /** Raised by every edit, so an edit made on a stale copy is refused (409), not merged. */
    version: integer('version').notNull().default(1),
    /** Conflicts of interest are recorded, detected and enforced (on for new calls). */
    conflictsEnabled: boolean('conflicts_enabled').notNull().default(true),
    /** Members say whether they have a conflict before a proposal's text opens for them. */
    declarationRequired: boolean('declaration_required').notNull().default(true),
    /** Reviewer assignment (issue 27): k, the reviews each proposal wants unless it says otherwise. */
    reviewsPerProposal: integer('reviews_per_proposal').notNull().default(3),
    /** Members mark the proposals they would like to review (Eager ... Not me). */
    biddingOpen: boolean('bidding_open').notNull().default(false),
    /** Bidders may open the proposals from the bidding list (otherwise it shows names only). */
    biddingShowsProposals: boolean('bidding_shows_proposals').notNull().default(false),
    /** Raised by each save of the call's reminder rules: a save names the version it started from. */
    remindersVersion: integer('reminders_version').notNull().default(1),
    /** Raised by each save of the call's capacities (issue 29, `call_capacities`). */
    capacityVersion: integer('capacity_version').notNull().default(0),
    /**
     * Raised by each save of the call's letter templates, signature or outcome names: a
     * letter records the version it was written from, so a changed template is a new letter.
     */
    lettersVersion: integer('letters_version').notNull().default(0),
    /** The chairs' signature under the call's letters (`{{ signature }}`). */
    letterSignature: text('letter_signature').notNull().default(''),
    /** The call's own words for the outcomes in its letters; an outcome left out keeps its label. */
    outcomeLabels: jsonb('outcome_labels')
      .$type<Partial<Record<Outcome, string>>>()
      .notNull()
      .default({}),
    /** When the chairs released the decisions to the applicants; null: not yet (issue 29). */
    decisionsReleasedAt: timestamp('decisions_released_at', { withTimezone: true }),
  },
  (t) => [
    index('calls_committee_idx').on(t.committeeId),
    index('calls_commencement_idx').on(t.commencement),
  ],
);

export const proposalTypes = pgTable(
  'proposal_types',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('proposal_types_call_idx').on(t.callId)],
);

/** The ordered proposal forms and review forms of a proposal type. */
export const proposalTypeForms = pgTable(
  'proposal_type_forms',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalTypeId: integer('proposal_type_id')
      .notNull()
      .references(() => proposalTypes.id, { onDelete: 'cascade' }),
    // Restrict: a form a call uses cannot be deleted (the form builder shows "In use").
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'restrict' }),
    kind: varchar('kind', { length: 10 }).notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('proposal_type_forms_unique_idx').on(t.proposalTypeId, t.kind, t.formId),
    index('proposal_type_forms_form_idx').on(t.formId),
    check('proposal_type_forms_kind_check', sql`${t.kind} in ('proposal', 'review')`),
  ],
);

/** A per-user submission window that overrides the call's for that user alone. */
export const extensions = pgTable(
  'extensions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    commencement: timestamp('commencement', { withTimezone: true }).notNull(),
    termination: timestamp('termination', { withTimezone: true }).notNull(),
    reason: varchar('reason', { length: 200 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('extensions_call_user_idx').on(t.callId, t.userId),
    index('extensions_user_idx').on(t.userId),
  ],
);

/**
 * Proposals (ARCHITECTURE.md "Proposal state"): stateVal 0 Draft, 1 Submitted; Reviewed
 * is derived when read. The editing lock is `proposal_locks`.
 */
export const proposals = pgTable(
  'proposals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'restrict' }),
    proposalTypeId: integer('proposal_type_id')
      .notNull()
      .references(() => proposalTypes.id, { onDelete: 'restrict' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 100 }).notNull(),
    stateVal: integer('state_val').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** lastModified: every change to the proposal, its answers or its people moves it. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /**
     * The chairs' decision, sanitised rich text; null until one is written. Not the
     * authors' work, so writing it leaves lastModified alone (authors would otherwise see
     * a decision being made before the call closes).
     */
    decisionSummary: text('decision_summary'),
    /** Raised by each save of the decision summary: a save names the version it started from. */
    decisionSummaryVersion: integer('decision_summary_version').notNull().default(0),
    decisionSummaryAt: timestamp('decision_summary_at', { withTimezone: true }),
    decisionSummaryBy: integer('decision_summary_by').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** Raised by each save of its applicants' conflict declarations (the Conflicts panel). */
    conflictsVersion: integer('conflicts_version').notNull().default(0),
    /** The reviews this proposal wants when the chair set it apart from the call's k; null: the call's. */
    reviewsWanted: integer('reviews_wanted'),
  },
  (t) => [
    index('proposals_call_idx').on(t.callId),
    // The chair's list in its default order (by name): a page of a 10,000-proposal call
    // read in order from the index, not 10,000 rows joined and sorted for 100.
    index('proposals_call_name_idx').on(t.callId, sql`lower(${t.name})`, t.id),
    index('proposals_type_idx').on(t.proposalTypeId),
    index('proposals_author_idx').on(t.authorId),
    check('proposals_state_check', sql`${t.stateVal} in (0, 1)`),
  ],
);

/**
 * The editing lock of a proposal (ARCHITECTURE.md "Lock"): a lease held by one editor, a
 * login session (`tokenId`) in one browser tab (`tabId`, '' when the client sent none),
 * until `expiresAt` unless renewed. Its own small row, so the editor's poll every few
 * seconds neither rewrites nor reads the proposal's row.
 */
export const proposalLocks = pgTable('proposal_locks', {
  proposalId: integer('proposal_id')
    .primaryKey()
    .references(() => proposals.id, { onDelete: 'cascade' }),
  holderId: integer('holder_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenId: integer('token_id').notNull(),
  tabId: varchar('tab_id', { length: 64 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A proposal's answers to one form: one row per entry (index 0 for a one-entry form),
 * saved against that form (a form with saved answers cannot change, spec section 4).
 * `entryId` names the entry whatever its index becomes; `version` rises with each save.
 */
export const proposalResponses = pgTable(
  'proposal_responses',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'restrict' }),
    entryIndex: integer('entry_index').notNull(),
    entryId: uuid('entry_id').notNull().defaultRandom(),
    version: integer('version').notNull().default(1),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('proposal_responses_entry_idx').on(t.proposalId, t.formId, t.entryIndex),
    uniqueIndex('proposal_responses_entry_id_idx').on(t.entryId),
    index('proposal_responses_form_idx').on(t.formId),
    check('proposal_responses_index_check', sql`${t.entryIndex} >= 0`),
  ],
);

/**
 * The saves applied, by Save All batch (its random hash), proposal, form and entry: a
 * retried save finds its row here and changes nothing more (ARCHITECTURE.md "Save hash").
 * A save of a new entry is keyed by the index it was sent with, a save of a saved entry
 * by that entry's id (its index is -1 here): positions move when entries are deleted, ids
 * do not. Saves of one proposal take turns on its row, so a retry's lookup before the
 * insert sees every save of its batch.
 */
export const proposalSaves = pgTable(
  'proposal_saves',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    formId: integer('form_id').notNull(),
    /** The index a new entry was sent with; -1 for a save of a saved entry (`entryId`). */
    entryIndex: integer('entry_index').notNull(),
    hash: integer('hash').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull(),
    /** The answers' digest (SHA-256, hex): a retry with other answers is refused, not dropped. */
    digest: varchar('digest', { length: 64 }).notNull().default(''),
    /** The entry the save wrote and its version then, so a retry answers as the first did. */
    entryId: uuid('entry_id').notNull(),
    version: integer('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.formId, t.hash, t.entryIndex, t.entryId] })],
);

export const proposalCollaborators = pgTable(
  'proposal_collaborators',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.userId] }),
    index('proposal_collaborators_user_idx').on(t.userId),
  ],
);

/** Reviewers a chair assigned to a proposal. */
export const proposalReviewers = pgTable(
  'proposal_reviewers',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Why a chair assigned a member with a conflict of interest all the same; null otherwise. */
    overrideReason: text('override_reason'),
    /** Propose never takes a locked assignment back, even when asked to redo. */
    locked: boolean('locked').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] })],
);

/**
 * Reviews: one per reviewer and proposal, made by its first save. Its score and each
 * score field's number are worked out from its answers when it is saved (packages/domain
 * reviews/scores.ts), so lists of thousands of proposals read them instead of answers.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    reviewerId: integer('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    score: doublePrecision('score'),
    scores: jsonb('scores').$type<{ name: string; value: number | null }[]>().notNull().default([]),
    /** Raised by each save of any of its forms: a save names the version it started from. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('reviews_proposal_reviewer_idx').on(t.proposalId, t.reviewerId),
    index('reviews_reviewer_idx').on(t.reviewerId),
  ],
);

/** A review's answers to one review form of its proposal's type. */
export const reviewResponses = pgTable(
  'review_responses',
  {
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    formId: integer('form_id')
      .notNull()
      .references(() => forms.id, { onDelete: 'restrict' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reviewId, t.formId] }),
    index('review_responses_form_idx').on(t.formId),
  ],
);

/**
 * Work done after a transaction commits (platform/data/jobs.ts): mail, for now. A job is written
 * in the same transaction as the change it follows, so it exists exactly when the change
 * does; every app process runs due jobs, each claimed by one with FOR UPDATE SKIP LOCKED.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: varchar('kind', { length: 50 }).notNull(),
    payload: jsonb('payload').notNull(),
    /** Not before this time: the first run, or the next try after a failure. */
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** A process that claimed the job holds it until then; a crashed one lets it go. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Set when the job gave up after its last attempt; done jobs are deleted. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.failedAt} is null`),
  ],
);

/**
 * When each scheduled kind of job is next due (platform/data/jobs.ts `schedule`): the
 * process that moves a row on queues that due time's job, in the same transaction, so a
 * due time runs once however many processes poll.
 */
export const jobSchedules = pgTable('job_schedules', {
  kind: varchar('kind', { length: 50 }).primaryKey(),
  nextDueAt: timestamp('next_due_at', { withTimezone: true }).notNull(),
});

/**
 * Files attached to proposals (issue 12): an attachment, or the answer to a form's file
 * field (`formId` and `field`). The bytes live in the file storage under `storageKey`,
 * which the server makes up; `name` is the uploader's, for display only.
 */
export const proposalFiles = pgTable(
  'proposal_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    storageKey: varchar('storage_key', { length: 100 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    size: integer('size').notNull(),
    contentType: varchar('content_type', { length: 200 }).notNull(),
    formId: integer('form_id').references(() => forms.id, { onDelete: 'restrict' }),
    field: varchar('field', { length: 200 }),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
    /** The tus upload that made it, so the uploader's browser can find the file it sent. */
    uploadId: varchar('upload_id', { length: 100 }),
  },
  (t) => [
    uniqueIndex('proposal_files_storage_key_idx').on(t.storageKey),
    uniqueIndex('proposal_files_upload_idx').on(t.uploadId),
    index('proposal_files_proposal_idx').on(t.proposalId),
    // Each upload sums its uploader's files against UPLOAD_QUOTA_MB (ASVS V12.1.3).
    index('proposal_files_uploaded_by_idx').on(t.uploadedBy),
    check('proposal_files_size_check', sql`${t.size} >= 0`),
  ],
);

/**
 * Single-use download links (issue 12): a ticket opens one file, or one proposal's PDF,
 * for the user it was made for, once, within a minute. Only its digest is stored.
 */
export const downloadTickets = pgTable(
  'download_tickets',
  {
    ticketHash: varchar('ticket_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * `file` (targetId is a proposal file), `extract` (targetId is a proposal) or `letter`
     * (targetId is a decision letter, issue 29).
     */
    kind: varchar('kind', { length: 10 }).notNull(),
    targetId: integer('target_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('download_tickets_expires_idx').on(t.expiresAt),
    check('download_tickets_kind_check', sql`${t.kind} in ('file', 'extract', 'letter')`),
  ],
);

/**
 * A user's two-step verification (TOTP, RFC 6238), one row per user. The key is stored
 * encrypted (AES-256-GCM under a key derived from the server secret, which is not in the
 * database: modules/auth/totp.ts); `enabledAt` is null
 * while a setup waits for its first code. `lastStep` is the time step of the last code
 * accepted, so no code works twice (ASVS V2.8.4).
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastStep: integer('last_step'),
});

/** Single-use recovery codes for two-step verification; only their SHA-256 digests. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

/**
 * A login that passed its password and waits for its second step: single-use, for
 * TWO_FACTOR_TICKET_TTL_MS and TWO_FACTOR_TICKET_MAX_FAILURES wrong codes. Only its digest
 * is stored.
 */
export const twoFactorTickets = pgTable(
  'two_factor_tickets',
  {
    ticketHash: varchar('ticket_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [index('two_factor_tickets_expires_idx').on(t.expiresAt)],
);

/** Raw bytes (PostgreSQL bytea), read and written as a Uint8Array. */
const bytea = customType<{ data: Uint8Array<ArrayBuffer>; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite and node-postgres both hand back a Buffer (a Uint8Array); a copy detaches it
  // from the driver's pool of memory.
  fromDriver: (value) => new Uint8Array(value),
  // node-postgres sends a Buffer as bytea; a plain Uint8Array it may not.
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * A security key (WebAuthn, ASVS V2.3.2) a user added as a second way to take the second
 * step of a password login (modules/auth/security-keys.service.ts). `credentialId` is the
 * key's credential id (base64url), `publicKey` its COSE public key, `counter` the signature
 * counter it last gave (a counter that does not go forward is refused: a cloned key).
 */
export const securityKeys = pgTable(
  'security_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: varchar('credential_id', { length: 1400 }).notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** What the browser said the key connects by (usb, nfc, ble, ...), passed back as a hint. */
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: varchar('name', { length: 64 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('security_keys_credential_id_idx').on(t.credentialId),
    index('security_keys_user_idx').on(t.userId),
  ],
);

/**
 * A request to a security key waiting for the key's answer: single use, for
 * SECURITY_KEY_CHALLENGE_TTL_MS. `register` challenges are bound to the user (one at a
 * time), `login` ones to the ticket of the login's second step (one per ticket, and gone
 * with the ticket).
 */
export const securityKeyChallenges = pgTable(
  'security_key_challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 16 }).notNull(),
    ticketHash: varchar('ticket_hash', { length: 64 }).references(
      () => twoFactorTickets.ticketHash,
      { onDelete: 'cascade' },
    ),
    challenge: varchar('challenge', { length: 128 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('security_key_challenges_register_idx')
      .on(t.userId)
      .where(sql`${t.purpose} = 'register'`),
    uniqueIndex('security_key_challenges_ticket_idx').on(t.ticketHash),
    index('security_key_challenges_expires_idx').on(t.expiresAt),
    check(
      'security_key_challenges_purpose_check',
      sql`(${t.purpose} = 'register' and ${t.ticketHash} is null) or (${t.purpose} = 'login' and ${t.ticketHash} is not null)`,
    ),
  ],
);

/**
 * Conflicts of interest: one per proposal and person (packages/domain conflicts). Declared
 * ones (applicant, reviewer, chair) are confirmed when made; detected ones are suggested
 * until a chair judges them, except authorship, which is a fact. `evidence` is what the
 * detector matched.
 */
export const conflicts = pgTable(
  'conflicts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 20 }).$type<ConflictType>().notNull(),
    source: varchar('source', { length: 20 }).$type<ConflictSource>().notNull(),
    state: varchar('state', { length: 20 }).$type<ConflictState>().notNull(),
    pinned: boolean('pinned').notNull().default(false),
    reason: text('reason').notNull().default(''),
    evidence: jsonb('evidence').$type<ConflictEvidence[]>().notNull().default([]),
    /** Who last declared, confirmed or dismissed it; null for the detector, or once deleted. */
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('conflicts_proposal_user_idx').on(t.proposalId, t.userId),
    index('conflicts_user_idx').on(t.userId),
    // The enforced ones, which assignment reads for a whole call: far fewer than suggestions.
    index('conflicts_confirmed_idx')
      .on(t.proposalId, t.userId)
      .where(sql`${t.state} = 'confirmed'`),
    check(
      'conflicts_type_check',
      sql`${t.type} in ('author', 'institutional', 'collaborator', 'personal', 'financial', 'other')`,
    ),
    check(
      'conflicts_source_check',
      sql`${t.source} in ('applicant', 'reviewer', 'chair', 'detected')`,
    ),
    check('conflicts_state_check', sql`${t.state} in ('suggested', 'confirmed', 'dismissed')`),
  ],
);

/**
 * A member's answer to a proposal's conflict declaration, once per proposal and person:
 * "No conflict", or a conflict (recorded in `conflicts` as well, source `reviewer`).
 */
export const conflictDeclarations = pgTable(
  'conflict_declarations',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conflict: boolean('conflict').notNull(),
    type: varchar('type', { length: 20 }).$type<ConflictType>(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] })],
);

/**
 * Caps on reviews per member and call (issue 27): the chair's (null: the default share)
 * and the one the member set for themselves (null: none), which may only be lower.
 */
export const assignmentCaps = pgTable(
  'assignment_caps',
  {
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chairCap: integer('chair_cap'),
    memberCap: integer('member_cap'),
  },
  (t) => [primaryKey({ columns: [t.callId, t.userId] })],
);

/** A member's bid on a proposal: how much they would like to review it. Neutral is no row. */
export const assignmentBids = pgTable(
  'assignment_bids',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    preference: varchar('preference', { length: 10 }).$type<Preference>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.userId] }),
    index('assignment_bids_user_idx').on(t.userId),
    check(
      'assignment_bids_preference_check',
      sql`${t.preference} in ('eager', 'willing', 'reluctant', 'not_me')`,
    ),
  ],
);

/**
 * A proposed assignment of a call's reviewers (Propose): worked out by a background job,
 * shown as a preview, then applied or discarded. `inputDigest` is the digest of what it was
 * worked out from; Apply recomputes it and refuses when the call has changed since.
 */
export const assignmentRuns = pgTable(
  'assignment_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    state: varchar('state', { length: 10 }).$type<'running' | 'ready' | 'failed'>().notNull(),
    progress: doublePrecision('progress').notNull().default(0),
    redo: boolean('redo').notNull(),
    seed: integer('seed').notNull(),
    inputDigest: varchar('input_digest', { length: 64 }),
    /** The solver's answer (`AssignmentResult`), once ready. */
    result: jsonb('result'),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('assignment_runs_call_idx').on(t.callId),
    check('assignment_runs_state_check', sql`${t.state} in ('running', 'ready', 'failed')`),
  ],
);

/**
 * A call's reminder rules (issue 28, packages/domain reminders): whom to remind, counted
 * from which deadline, with what text. New calls get `defaultReminderRules()`.
 */
export const reminderRules = pgTable(
  'reminder_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    audience: varchar('audience', { length: 30 }).$type<ReminderAudience>().notNull(),
    anchor: varchar('anchor', { length: 30 }).$type<ReminderAnchor>().notNull(),
    /** Hours from the anchor: negative before it. */
    offsetHours: integer('offset_hours').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    subject: varchar('subject', { length: 200 }).notNull(),
    body: text('body').notNull(),
    /** When the rule was made or last turned on: it never sends for a due time before this. */
    since: timestamp('since', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('reminder_rules_call_idx').on(t.callId),
    check(
      'reminder_rules_audience_check',
      sql`${t.audience} in ('authors_with_draft', 'reviewers_pending')`,
    ),
    check('reminder_rules_anchor_check', sql`${t.anchor} in ('submission_close', 'review_close')`),
  ],
);

/**
 * Each reminder sent: one row per rule, person and due time (`kind` `rule`), per chair's
 * copy (`copy`), or per "Remind selected" (`manual`, no rule, `dueAt` the moment it was
 * asked). The unique key is what makes a reminder go out once, whatever process or retry
 * gets there first: the mail is queued in the transaction that inserts the row.
 */
export const reminderDispatches = pgTable(
  'reminder_dispatches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    ruleId: integer('rule_id').references(() => reminderRules.id, { onDelete: 'set null' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10 }).$type<'rule' | 'copy' | 'manual'>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    /** How many items the mail listed. */
    items: integer('items').notNull(),
    /** Who asked for a manual reminder. */
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('reminder_dispatches_once_idx').on(t.ruleId, t.userId, t.dueAt, t.kind),
    index('reminder_dispatches_call_user_idx').on(t.callId, t.userId, t.sentAt),
    index('reminder_dispatches_user_idx').on(t.userId),
    check('reminder_dispatches_kind_check', sql`${t.kind} in ('rule', 'copy', 'manual')`),
  ],
);

/**
 * The security log's events (platform/security/security-log.ts) kept in the database as
 * well, so the administrators' Activity page shows logins, two-step changes and exports
 * beside the audit rows. Only ids, codes and statuses, as the log has them.
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    event: varchar('event', { length: 50 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    requestId: varchar('request_id', { length: 64 }),
    address: varchar('address', { length: 64 }),
    /** The event's other fields (reason, method, callId, ...). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index('security_events_at_idx').on(t.at),
    index('security_events_user_idx').on(t.userId, t.at),
  ],
);

/**
 * A proposal's decision (issue 29): its outcome, what it is awarded of each facility per
 * data field (`ResourceValues`), a note per facility (required for more than was asked),
 * and where a chair moved it in the ranking. One row per proposal once a chair first
 * touches it; `version` rises with each save, which names the version it started from.
 */
export const proposalDecisions = pgTable(
  'proposal_decisions',
  {
    proposalId: integer('proposal_id')
      .primaryKey()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    outcome: varchar('outcome', { length: 20 }).$type<Outcome>(),
    awards: jsonb('awards').$type<Record<string, Record<string, number>>>().notNull().default({}),
    awardNotes: jsonb('award_notes').$type<Record<string, string>>().notNull().default({}),
    version: integer('version').notNull().default(0),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** Where a chair put it in the ranking (`keyBetween`); null: by its score. */
    rankKey: doublePrecision('rank_key'),
    rankReason: varchar('rank_reason', { length: 500 }),
    rankedAt: timestamp('ranked_at', { withTimezone: true }),
    rankedBy: integer('ranked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check(
      'proposal_decisions_outcome_check',
      sql`${t.outcome} is null or ${t.outcome} in ('approved', 'partly_approved', 'waitlisted', 'declined')`,
    ),
  ],
);

/** Each facility's capacity per data field in a call (issue 29), as its chairs entered it. */
export const callCapacities = pgTable(
  'call_capacities',
  {
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    facility: varchar('facility', { length: 255 }).notNull(),
    field: varchar('field', { length: 255 }).notNull(),
    amount: doublePrecision('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.callId, t.facility, t.field] }),
    check('call_capacities_amount_check', sql`${t.amount} >= 0`),
  ],
);

/** A call's letter template for one outcome (issue 29): plain text with named fields. */
export const letterTemplates = pgTable(
  'letter_templates',
  {
    callId: integer('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    outcome: varchar('outcome', { length: 20 }).$type<Outcome>().notNull(),
    subject: varchar('subject', { length: 300 }).notNull(),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.callId, t.outcome] }),
    check(
      'letter_templates_outcome_check',
      sql`${t.outcome} in ('approved', 'partly_approved', 'waitlisted', 'declined')`,
    ),
  ],
);

/**
 * Each decision letter written (issue 29): one per proposal, decision version and letters
 * version (the unique key that sends it once, whatever retries), with what it said, its
 * PDF in the file storage, and whether it went out. A letter written after a changed
 * outcome supersedes the one before, which stays here (history), unseen by the applicants.
 */
export const decisionLetters = pgTable(
  'decision_letters',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    decisionVersion: integer('decision_version').notNull(),
    lettersVersion: integer('letters_version').notNull(),
    outcome: varchar('outcome', { length: 20 }).$type<Outcome>().notNull(),
    subject: varchar('subject', { length: 400 }).notNull(),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html').notNull(),
    /** The PDF in the file storage, once made. */
    storageKey: varchar('storage_key', { length: 100 }),
    state: varchar('state', { length: 12 })
      .$type<'queued' | 'sent' | 'failed' | 'superseded'>()
      .notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('decision_letters_once_idx').on(t.proposalId, t.decisionVersion, t.lettersVersion),
    index('decision_letters_proposal_idx').on(t.proposalId, t.createdAt),
    check(
      'decision_letters_state_check',
      sql`${t.state} in ('queued', 'sent', 'failed', 'superseded')`,
    ),
  ],
);
