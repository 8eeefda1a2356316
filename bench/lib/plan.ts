/**
 * The generated call as plain data, before anything is written: who the people are,
 * which proposals they write with which answers, who reviews what and how. A seeded
 * random generator makes it, so the same options give the same plan; both writers (the
 * bulk SQL of bench/lib/bulk.ts and the service layer of bench/lib/service-writer.ts)
 * write one plan, which is how the test proves them equivalent.
 */
import type { DeclaredConflictType, Preference, ScoreFormOptions } from '@merit/domain';
import {
  detectConflicts,
  type DetectedConflict,
  type DetectionPerson,
  type DetectionProposal,
} from '@merit/domain/conflict-detection';

export interface PlanOptions {
  proposals: number;
  reviews: number;
  facilities: number;
  /** Committee members who review (default: one per 200 reviews, at least 8). */
  members?: number;
  /** Authors with a Draft in the open call, for the editing benchmarks. */
  editors: number;
  /** The present: the main call is in review now, the editors' call open for submission. */
  now: Date;
  seed?: number;
}

export interface PlannedUser {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  institution: string;
  isAdmin: boolean;
}

/** An answer to one form (`form` is a key of FORM_KEYS), one entry of a multi-entry form. */
export interface PlannedAnswer {
  form: FormKey;
  index: number;
  data: Record<string, unknown>;
}

export interface PlannedReview {
  /** Index into `plan.users`. */
  reviewer: number;
  at: Date;
  comments: Record<string, unknown>;
  scores: Record<string, unknown>;
}

export interface PlannedProposal {
  /** `main` (the 10k call, in review now) or `open` (the editors' call). */
  call: 'main' | 'open';
  /** Index into the call's proposal types. */
  type: number;
  name: string;
  /** Index into `plan.users`. */
  author: number;
  collaborators: number[];
  submitted: boolean;
  /** When its author wrote (and submitted) it. */
  at: Date;
  answers: PlannedAnswer[];
  /**
   * Members its applicants declared a conflict with in its Conflicts panel, while writing
   * it (indexes into `plan.users`).
   */
  declared: PlannedDeclaration[];
  /** Assigned reviewers (indexes into `plan.users`), in the order the chair assigned them. */
  reviewers: number[];
  reviews: PlannedReview[];
}

/** A conflict declared by hand: by the applicants (panel) or by the member (declaration). */
export interface PlannedDeclaration {
  /** Index into `plan.users`: the member conflicted. */
  user: number;
  type: DeclaredConflictType;
  reason: string;
}

/** A member's own declaration of a conflict with a main call proposal, during review. */
export interface PlannedMemberDeclaration extends PlannedDeclaration {
  /** Index into `plan.proposals`. */
  proposal: number;
  at: Date;
}

/** A member's bid on a main call proposal, made while bidding was open. */
export interface PlannedBid {
  proposal: number;
  user: number;
  preference: Preference;
  at: Date;
}

export interface CallWindows {
  commencement: Date;
  termination: Date;
  reviewCommencement: Date;
  reviewTermination: Date;
}

export interface Plan {
  now: Date;
  facilities: string[];
  /** users[0] is the admin who sets the call up; then chairs, members, authors, editors. */
  users: PlannedUser[];
  admin: number;
  chairs: number[];
  members: number[];
  editors: number[];
  mainWindows: CallWindows;
  openWindows: CallWindows;
  /** When the admin set the committee and calls up: before either call opened. */
  setUpAt: Date;
  /** When the chair opened and closed bidding on the main call: after submission closed. */
  bidding: { from: Date; to: Date };
  /** k of the main call: the reviewers each submitted proposal has. */
  reviewsPerProposal: number;
  /** Main call proposals first, then one Draft per editor in the open call. */
  proposals: PlannedProposal[];
  /** Members' bids on the main call's submitted proposals, in the order they were made. */
  bids: PlannedBid[];
  /** Members' own conflict declarations on the main call, in the order they were made. */
  memberDeclarations: PlannedMemberDeclaration[];
  /**
   * What Merit's detector finds in the main call: the domain's `detectConflicts` over the plan,
   * with plan indexes for ids (proposal and user ids rise in the plan's order, so its order
   * is the written one too). Pairs someone also declared are among them.
   */
  detected: DetectedConflict[];
  /**
   * Pairs (`conflictPair`) of any conflict: detected or declared. No reviewer is assigned
   * to, and no member bids on, a pair in it.
   */
  conflicted: Set<number>;
}

/** A proposal and a user (plan indexes) as one number, for sets of hundreds of thousands. */
export const conflictPair = (proposal: number, user: number) => proposal * 1_048_576 + user;

export const FORM_KEYS = [
  'project',
  'team',
  'resources',
  'instruments',
  'reviewComments',
  'reviewScores',
] as const;
export type FormKey = (typeof FORM_KEYS)[number];

/**
 * The reviewers' reminder the chair adds to the main call (besides the defaults every call
 * gets): a month before review closes, so it fell due 5 days before the data was made.
 * The server's own sweep looks only at reminders due since its last run, so it leaves this
 * one alone; a sweep asked for all that still go out (`sweepReminders` without `from`)
 * finds every reviewer with a review still to write.
 */
export const REVIEW_STARTED_REMINDER = {
  audience: 'reviewers_pending',
  anchor: 'review_close',
  offsetHours: -35 * 24,
  enabled: true,
  subject: 'Your reviews for {{ call }}',
  body: [
    'Dear {{ name }},',
    '',
    'Review of {{ call }} is open until {{ deadline }}. These reviews are assigned to you:',
    '',
    '{{ items }}',
    '',
    'Your pending reviews: {{ link }}',
  ].join('\n'),
} as const;

/** The proposal types of the main call: their proposal forms in order. */
export const MAIN_TYPES: { name: string; forms: FormKey[] }[] = [
  { name: 'Observing time', forms: ['project', 'team', 'resources'] },
  { name: 'Instrument time', forms: ['project', 'instruments'] },
];
/** The open call's one type; editors save its first form. */
export const OPEN_TYPES: { name: string; forms: FormKey[] }[] = [
  { name: 'Open time', forms: ['project', 'team'] },
];
export const REVIEW_FORMS: FormKey[] = ['reviewComments', 'reviewScores'];

export const SCORE_OPTIONS: ScoreFormOptions = {
  method: 'average',
  fields: ['science', 'feasibility'],
};

const FACILITY_NAMES = [
  'Northern Telescope',
  'Southern Array',
  'Radio Dish',
  'Solar Observatory',
  'Neutron Source',
  'Synchrotron',
];

/** The forms, as an admin builds them in the form builder: schema, UI schema, options. */
export function formDefinitions(facilities: string[]) {
  const facility = { type: 'string', title: 'Facility', enum: facilities };
  return {
    project: {
      type: 0,
      displayName: 'Project',
      jsonSchema: {
        type: 'object',
        required: ['title', 'summary'],
        properties: {
          title: { type: 'string', title: 'Project title', maxLength: 200 },
          summary: { type: 'string', title: 'Summary', maxLength: 5000 },
          keywords: { type: 'string', title: 'Keywords' },
        },
      },
      uiSchema: { summary: { 'ui:widget': 'textarea' } },
      options: null,
    },
    team: {
      type: 1,
      displayName: 'Team member',
      jsonSchema: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', title: 'Name' },
          role: { type: 'string', title: 'Role', enum: ['PI', 'Co-I', 'Student'] },
          hours: { type: 'integer', title: 'Hours', minimum: 0 },
        },
      },
      uiSchema: {},
      options: null,
    },
    resources: {
      type: 4,
      displayName: 'Resources',
      jsonSchema: {
        type: 'object',
        required: ['facility', 'hours'],
        properties: {
          facility,
          hours: { type: 'number', title: 'Hours', minimum: 0 },
          nights: { type: 'integer', title: 'Nights', minimum: 0 },
        },
      },
      uiSchema: {},
      options: { institution_field: 'facility', data_fields: ['hours', 'nights'] },
    },
    instruments: {
      type: 5,
      displayName: 'Instrument request',
      jsonSchema: {
        type: 'object',
        required: ['facility', 'instrument', 'hours'],
        properties: {
          facility,
          instrument: { type: 'string', title: 'Instrument' },
          hours: { type: 'number', title: 'Hours', minimum: 0 },
        },
      },
      uiSchema: {},
      options: { institution_field: 'facility', data_fields: ['hours'] },
    },
    reviewComments: {
      type: 2,
      displayName: 'Review comments',
      jsonSchema: {
        type: 'object',
        properties: {
          comments: { type: 'string', title: 'Comments' },
          strengths: { type: 'string', title: 'Strengths' },
        },
      },
      uiSchema: { comments: { 'ui:widget': 'textarea' } },
      options: null,
    },
    reviewScores: {
      type: 3,
      displayName: 'Review scores',
      jsonSchema: {
        type: 'object',
        required: ['science', 'feasibility'],
        properties: {
          science: { type: 'integer', title: 'Science', minimum: 1, maximum: 5 },
          feasibility: { type: 'integer', title: 'Feasibility', minimum: 1, maximum: 5 },
        },
      },
      uiSchema: {},
      options: SCORE_OPTIONS,
    },
  } satisfies Record<FormKey, unknown>;
}

/** mulberry32: small, fast and good enough to make data with. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return { next, int, pick };
}

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jon'];
const LAST = ['Nguyen', 'Smith', 'Okafor', 'Rossi', 'Kim', 'Müller', 'Silva', 'Patel', 'Lee'];
/**
 * 150 institutions (50 places, 3 kinds each): a member shares one with about 1.6 % of the
 * proposals (a proposal's 2.6 applicants on average), which the detector suggests as
 * conflicts. With the members' own declarations that makes about 2 % of member x proposal
 * pairs (issue 31), as large committees report.
 */
const PLACES = [
  'Adelaide',
  'Auckland',
  'Bergen',
  'Bologna',
  'Boulder',
  'Brisbane',
  'Cape Town',
  'Cardiff',
  'Chile',
  'Copenhagen',
  'Delft',
  'Dublin',
  'Durham',
  'Edinburgh',
  'Geneva',
  'Ghent',
  'Gothenburg',
  'Granada',
  'Hamburg',
  'Heidelberg',
  'Helsinki',
  'Hobart',
  'Kyoto',
  'Leiden',
  'Lisbon',
  'Lyon',
  'Madison',
  'Manchester',
  'Melbourne',
  'Montreal',
  'Munich',
  'Nagoya',
  'Oslo',
  'Padua',
  'Perth',
  'Porto',
  'Prague',
  'Pune',
  'Santiago',
  'Seoul',
  'Sheffield',
  'Stockholm',
  'Sydney',
  'Taipei',
  'Tartu',
  'Toronto',
  'Utrecht',
  'Valencia',
  'Vienna',
  'Zurich',
];
const INSTITUTIONS = PLACES.flatMap((place) => [
  `University of ${place}`,
  `${place} Institute of Technology`,
  `${place} Observatory`,
]);
const WORDS = [
  'stellar',
  'winds',
  'galaxy',
  'formation',
  'dust',
  'spectra',
  'pulsar',
  'timing',
  'exoplanet',
  'atmospheres',
  'survey',
  'clusters',
  'magnetic',
  'fields',
  'transient',
  'cosmic',
];
const INSTRUMENTS = ['Spectrograph', 'Imager', 'Polarimeter', 'Correlator'];
const DAY = 24 * 60 * 60 * 1000;

function words(rng: ReturnType<typeof random>, n: number): string {
  return Array.from({ length: n }, () => rng.pick(WORDS)).join(' ');
}

/** A time between `from` and `to`, whole seconds (as a browser would send them). */
function between(rng: ReturnType<typeof random>, from: Date, to: Date): Date {
  const t = from.getTime() + rng.next() * (to.getTime() - from.getTime());
  return new Date(Math.floor(t / 1000) * 1000);
}

export function makePlan(options: PlanOptions): Plan {
  const rng = random(options.seed ?? 20261123);
  const now = new Date(Math.floor(options.now.getTime() / 1000) * 1000);
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const facilities = Array.from(
    { length: options.facilities },
    (_, i) => FACILITY_NAMES[i] ?? `Facility ${i + 1}`,
  );
  const setUpAt = at(-61);
  const mainWindows: CallWindows = {
    commencement: at(-60),
    termination: at(-10),
    reviewCommencement: at(-9),
    reviewTermination: at(30),
  };
  const openWindows: CallWindows = {
    commencement: at(-10),
    termination: at(30),
    reviewCommencement: at(30),
    reviewTermination: at(60),
  };

  const users: PlannedUser[] = [];
  const person = (role: string, i: number, isAdmin = false) => {
    const username = `bench_${role}_${String(i + 1).padStart(5, '0')}`;
    users.push({
      username,
      email: `${username}@example.test`,
      firstName: rng.pick(FIRST),
      lastName: rng.pick(LAST),
      institution: rng.pick(INSTITUTIONS),
      isAdmin,
    });
    return users.length - 1;
  };
  const range = (n: number, role: string) => Array.from({ length: n }, (_, i) => person(role, i));

  const admin = person('admin', 0, true);
  const chairs = range(2, 'chair');
  // About 200 reviews each, as a large committee shares them.
  const members = range(
    options.members ?? Math.max(8, Math.round(options.reviews / 200)),
    'member',
  );
  const authors = range(Math.max(2, Math.ceil(options.proposals * 0.6)), 'author');
  const editors = range(options.editors, 'editor');

  const proposals: PlannedProposal[] = [];
  for (let i = 0; i < options.proposals; i++) {
    const type = i % MAIN_TYPES.length;
    const author = rng.pick(authors);
    const collaborators = new Set<number>();
    const wanted = rng.pick([0, 1, 1, 1, 2, 2, 3]);
    while (collaborators.size < wanted) {
      const c = rng.pick(authors);
      if (c !== author) collaborators.add(c);
    }
    const answers: PlannedAnswer[] = [
      {
        form: 'project',
        index: 0,
        data: {
          title: `A study of ${words(rng, 4)}`,
          summary: `We propose to observe ${words(rng, 40)}.`,
          keywords: words(rng, 3),
        },
      },
    ];
    if (type === 0) {
      const team = rng.int(1, 3);
      for (let index = 0; index < team; index++)
        answers.push({
          form: 'team',
          index,
          data: {
            name: `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
            role: index === 0 ? 'PI' : rng.pick(['Co-I', 'Student']),
            hours: rng.int(0, 200),
          },
        });
      answers.push({
        form: 'resources',
        index: 0,
        data: { facility: rng.pick(facilities), hours: rng.int(1, 80) / 2, nights: rng.int(0, 10) },
      });
    } else {
      const requests = rng.int(1, 3);
      for (let index = 0; index < requests; index++)
        answers.push({
          form: 'instruments',
          index,
          data: {
            facility: rng.pick(facilities),
            instrument: rng.pick(INSTRUMENTS),
            hours: rng.int(1, 40) / 2,
          },
        });
    }
    proposals.push({
      call: 'main',
      type,
      name: `${words(rng, 3)} ${i + 1}`,
      author,
      collaborators: [...collaborators],
      submitted: rng.next() < 0.92,
      at: between(rng, mainWindows.commencement, mainWindows.termination),
      answers,
      declared: [],
      reviewers: [],
      reviews: [],
    });
  }

  // What Merit's detector will find, by the domain's own function over the plan (plan
  // indexes as ids): the pairs no reviewer is assigned to and no member bids on.
  const committee = [...chairs, ...members];
  const asPerson = (index: number): DetectionPerson => {
    const user = users[index]!;
    return {
      id: index,
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
      institution: user.institution,
      collaboratorEmails: [],
    };
  };
  const people = new Map(users.map((_, index) => [index, asPerson(index)]));
  const conflicted = new Set<number>();
  const pair = conflictPair;
  const detectionOf = (from: number) =>
    detectConflicts(
      committee.map(asPerson),
      proposals.slice(from).map((p, i): DetectionProposal => ({
        id: from + i,
        name: p.name,
        authorId: p.author,
        collaboratorIds: p.collaborators,
      })),
      people,
    );
  const detected = detectionOf(0);
  for (const found of detected) conflicted.add(pair(found.proposalId, found.userId));

  // One proposal in ten: its applicants declare a conflict with a member or two.
  proposals.forEach((proposal, index) => {
    if (rng.next() >= 0.1) return;
    const wanted = rng.int(1, 2);
    for (let tries = 0; proposal.declared.length < wanted && tries < 10; tries++) {
      const user = rng.pick(members);
      if (conflicted.has(pair(index, user))) continue;
      conflicted.add(pair(index, user));
      proposal.declared.push({
        user,
        type: rng.pick(['personal', 'collaborator', 'financial'] as const),
        reason: rng.pick(['', 'A former supervisor.', 'We share a grant.', 'A close colleague.']),
      });
    }
  });

  // Reviewer assignments: about 10% more than reviews, spread evenly over the submitted
  // proposals, so some proposals are Reviewed (every assigned reviewer has written) and
  // others not.
  const submittedIndexes = proposals.flatMap((p, i) => (p.submitted ? [i] : []));
  const submitted = submittedIndexes.map((i) => proposals[i]!);
  let reviewsPerProposal = 3;
  if (submitted.length > 0 && options.reviews > 0) {
    const perProposal = Math.min(
      members.length,
      Math.max(1, Math.ceil((options.reviews * 1.1) / submitted.length)),
    );
    reviewsPerProposal = perProposal;
    submitted.forEach((proposal, i) => {
      const index = submittedIndexes[i]!;
      const chosen = new Set<number>();
      // Never a member with a conflict of any kind, as a chair (or Propose) assigns; a
      // draw is taken again, and a committee too small for k leaves the proposal short.
      for (let tries = 0; chosen.size < perProposal && tries < perProposal * 50; tries++) {
        const member = rng.pick(members);
        if (!conflicted.has(pair(index, member))) chosen.add(member);
      }
      proposal.reviewers = [...chosen];
    });
    const assignments = submitted.reduce((n, p) => n + p.reviewers.length, 0);
    const reviews = Math.min(options.reviews, assignments);
    // Each proposal gets one review while there are enough, then, in a shuffled order,
    // proposals get all their reviewers' reviews (Reviewed) until the reviews run out:
    // most proposals Reviewed, the rest waiting for some of theirs.
    const counts = new Array<number>(submitted.length).fill(0);
    let left = reviews;
    for (let i = 0; i < submitted.length && left > 0; i++, left--) counts[i] = 1;
    const order = submitted.map((_, i) => i).sort(() => rng.next() - 0.5);
    for (const i of order) {
      if (left === 0) break;
      const more = Math.min(submitted[i]!.reviewers.length - counts[i]!, left);
      counts[i]! += more;
      left -= more;
    }
    submitted.forEach((proposal, i) => {
      proposal.reviews = proposal.reviewers.slice(0, counts[i]).map((reviewer) => ({
        reviewer,
        at: between(rng, mainWindows.reviewCommencement, now),
        comments: {
          comments: `The proposal on ${words(rng, 3)} is ${rng.pick(['sound', 'ambitious', 'unclear', 'excellent'])}. ${words(rng, 20)}.`,
          strengths: words(rng, 5),
        },
        scores: { science: rng.int(1, 5), feasibility: rng.int(1, 5) },
      }));
    });
  }

  editors.forEach((editor, i) => {
    proposals.push({
      call: 'open',
      type: 0,
      name: `Draft of ${words(rng, 2)} ${i + 1}`,
      author: editor,
      collaborators: [],
      submitted: false,
      at: between(rng, openWindows.commencement, now),
      answers: [
        {
          form: 'project',
          index: 0,
          data: { title: `Draft ${i + 1}`, summary: `Early notes on ${words(rng, 10)}.` },
        },
      ],
      declared: [],
      reviewers: [],
      reviews: [],
    });
  });

  // The editors' call is not detected: the product looks when a proposal is submitted or
  // its team changes, and the editors' Drafts have neither happened.

  // Bidding, the day between submission closing and review opening: four in ten of the
  // pairs later assigned had an Eager or Willing bid (the chair followed them), and each
  // member marked a few more (Willing, Reluctant, Not me) that were not assigned.
  const bidding = {
    from: new Date(mainWindows.termination.getTime() + 60 * 60 * 1000),
    to: mainWindows.reviewCommencement,
  };
  const bids: PlannedBid[] = [];
  const bid = new Set<number>();
  const addBid = (proposal: number, user: number, preference: Preference) => {
    if (bid.has(pair(proposal, user))) return;
    bid.add(pair(proposal, user));
    bids.push({ proposal, user, preference, at: between(rng, bidding.from, bidding.to) });
  };
  submittedIndexes.forEach((index) => {
    for (const user of proposals[index]!.reviewers)
      if (rng.next() < 0.4) addBid(index, user, rng.next() < 0.6 ? 'eager' : 'willing');
  });
  const extraBids = Math.max(1, Math.round(submittedIndexes.length * 0.002));
  if (submittedIndexes.length > 0)
    for (const user of members)
      for (let n = 0; n < extraBids; n++) {
        const index = rng.pick(submittedIndexes);
        if (conflicted.has(pair(index, user)) || proposals[index]!.reviewers.includes(user))
          continue;
        addBid(index, user, rng.pick(['willing', 'reluctant', 'not_me'] as const));
      }
  bids.sort((a, b) => a.at.getTime() - b.at.getTime());

  // Members' own declarations during review: about 0.3 % of their pairs, none with a
  // proposal they review or bid on (a member would not bid on one they are conflicted with).
  const memberDeclarations: PlannedMemberDeclaration[] = [];
  const perMember = Math.max(1, Math.round(submittedIndexes.length * 0.003));
  if (submittedIndexes.length > 0)
    for (const user of members)
      for (let n = 0; n < perMember; n++) {
        const index = rng.pick(submittedIndexes);
        const key = pair(index, user);
        if (conflicted.has(key) || bid.has(key) || proposals[index]!.reviewers.includes(user))
          continue;
        conflicted.add(key);
        memberDeclarations.push({
          proposal: index,
          user,
          type: rng.pick(['personal', 'financial', 'other'] as const),
          reason: rng.pick(['', 'A relative works in the team.', 'A competing proposal.']),
          at: between(rng, mainWindows.reviewCommencement, now),
        });
      }
  memberDeclarations.sort((a, b) => a.at.getTime() - b.at.getTime());

  return {
    now,
    facilities,
    users,
    admin,
    chairs,
    members,
    editors,
    mainWindows,
    openWindows,
    setUpAt,
    bidding,
    reviewsPerProposal,
    proposals,
    bids,
    memberDeclarations,
    detected,
    conflicted,
  };
}
