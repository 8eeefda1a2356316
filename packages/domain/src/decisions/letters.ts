import { Liquid, Tokenizer, TypeGuards, type FS, type Template } from 'liquidjs';
import { facilitiesOf, facilityLabel, type ResourceValues } from '../resources/resources.js';
import { formatAmount, OUTCOMES, type Outcome } from './outcomes.js';

/*
 * Decision letters (issue 29): per call and outcome, a subject and a body the chairs write
 * in plain text with named fields, `{{ applicant.name }}`, rendered by LiquidJS with strict
 * variables. Imported as `@merit/domain/letters`, so only the screens that write letters
 * load the template engine.
 *
 * What a letter may hold is fixed here: the fields of LETTER_FIELDS, and the tags of
 * ALLOWED_TAGS (conditions; never `include` or `render`, which would read files on the
 * server). Every value is escaped in the letter's HTML, the chair's own text too; only the
 * decision summary (sanitised when it was saved) and the awards table (made here) go in as
 * HTML. The `raw` filter is an ordinary one here, so nothing can be let through unescaped.
 */

/** The fields a letter may name, with what each holds, in the order the editor lists them. */
export const LETTER_FIELDS = [
  { name: 'applicant.name', help: 'The name of the proposal’s author' },
  { name: 'proposal.name', help: 'The proposal’s name' },
  { name: 'proposal.id', help: 'The proposal’s number' },
  { name: 'call.name', help: 'The call’s name' },
  { name: 'outcome', help: 'The outcome, in the call’s words for it' },
  { name: 'decision_summary', help: 'The decision summary the chairs wrote' },
  { name: 'awards_table', help: 'A table of what was asked for and what is awarded' },
  { name: 'committee.name', help: 'The committee’s name' },
  { name: 'signature', help: 'The signature the chairs set for the call’s letters' },
  { name: 'link', help: 'The address of the proposal in Merit' },
] as const;
export type LetterField = (typeof LETTER_FIELDS)[number]['name'];
const FIELD_NAMES = new Set<string>(LETTER_FIELDS.map((field) => field.name));

/** The tags a template may use: conditions and comments. */
export const ALLOWED_TAGS = new Set([
  'if',
  'elsif',
  'else',
  'endif',
  'unless',
  'endunless',
  'case',
  'when',
  'endcase',
  'comment',
  'endcomment',
]);

export const MAX_LETTER_SUBJECT = 300;
export const MAX_LETTER_BODY = 20_000;
export const MAX_SIGNATURE = 2_000;

export const letterMessages = {
  unknownField: (name: string) =>
    `There is no field {{ ${name} }}. The fields are: ${LETTER_FIELDS.map((f) => f.name).join(', ')}.`,
  tagNotAllowed: (name: string) =>
    `A letter cannot use {% ${name} %}: only if, unless and case (with else) are allowed.`,
  syntax: (detail: string) => `This text has a mistake in a field or a tag: ${detail}.`,
  /** 409 `stale`: another chair saved the letter templates after this one opened them. */
  stale:
    'Someone changed the letter templates after you opened them, so yours were not saved. Look at theirs, then save again.',
  oneTemplatePerOutcome: 'Each outcome has one template.',
  noTemplate: 'This proposal’s outcome has no letter template yet.',
  noOutcome: 'This proposal has no outcome, so it gets no letter.',
  /** 403: a letter's preview is the chairs'; its applicants read the letter once it is sent. */
  previewChairsOnly: 'Only the chairs of the call’s committee can preview a proposal’s letter.',
  /** 409: letters are sent again only after the first ones went out with the release. */
  notReleased: 'Letters can be sent once the decisions of this call are released.',
} as const;

/** A subject and a body as the chairs write them. */
export interface LetterTemplate {
  subject: string;
  body: string;
}

/** HTML with a plain-text version: the decision summary, the awards table. */
export interface LetterBlock {
  html: string;
  text: string;
}

/** What a letter is written from: one value per field of LETTER_FIELDS. */
export interface LetterValues {
  applicant: { name: string };
  proposal: { name: string; id: number };
  call: { name: string };
  outcome: string;
  decision_summary: LetterBlock;
  awards_table: LetterBlock;
  committee: { name: string };
  signature: string;
  link: string;
}

/** A letter as it is sent: the subject, and the body as text and as HTML. */
export interface RenderedLetter {
  subject: string;
  text: string;
  html: string;
}

/** A block of HTML the letter takes as it is (made here or sanitised before). */
class TrustedHtml {
  constructor(readonly html: string) {}
  toString() {
    return this.html;
  }
}

export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Files are never read: a template that got past the checks and asks for one fails. */
const NO_FILES: FS = {
  readFileSync: () => {
    throw new Error('Letters cannot read files.');
  },
  readFile: () => Promise.reject(new Error('Letters cannot read files.')),
  existsSync: () => false,
  exists: () => Promise.resolve(false),
  resolve: (_dir: string, file: string) => file,
  contains: () => Promise.resolve(false),
  containsSync: () => false,
};

function engine(escape: boolean): Liquid {
  const liquid = new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    fs: NO_FILES,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    outputEscape: escape
      ? (value: unknown) => (value instanceof TrustedHtml ? value.html : escapeHtml(value))
      : undefined,
  });
  // `raw` would skip the escaping: here it is the value as it is, escaped like any other.
  liquid.registerFilter('raw', (value: unknown) => value);
  return liquid;
}
const htmlEngine = engine(true);
const textEngine = engine(false);

/** Parsed templates by engine and source: a release renders thousands of letters from a few. */
const parsed = new Map<Liquid, Map<string, Template[]>>();
/** Sources kept per engine; past it the cache starts again (a template is cheap to parse once). */
const PARSED_KEPT = 64;

/** `source` rendered by `liquid` with `scope`, parsed once for every letter that uses it. */
function renderSync(liquid: Liquid, source: string, scope: object): string {
  let kept = parsed.get(liquid);
  if (!kept) parsed.set(liquid, (kept = new Map()));
  let templates = kept.get(source);
  if (!templates) {
    if (kept.size >= PARSED_KEPT) kept.clear();
    kept.set(source, (templates = liquid.parse(source)));
  }
  return liquid.renderSync(templates, scope) as string;
}

/**
 * The problems with one text of a template (its subject or body): a mistake in a field or
 * a tag, a tag that is not allowed, a field that is not one of LETTER_FIELDS. Empty when
 * it can be sent.
 */
export function letterTextProblems(text: string): string[] {
  let tokens;
  try {
    tokens = new Tokenizer(text).readTopLevelTokens();
  } catch (error) {
    return [letterMessages.syntax(errorDetail(error))];
  }
  const problems: string[] = [];
  for (const token of tokens) {
    if (TypeGuards.isTagToken(token) && !ALLOWED_TAGS.has(token.name))
      problems.push(letterMessages.tagNotAllowed(token.name));
  }
  if (problems.length > 0) return problems;
  let segments: unknown[][];
  try {
    segments = textEngine.globalVariableSegmentsSync(textEngine.parse(text));
  } catch (error) {
    return [letterMessages.syntax(errorDetail(error))];
  }
  const unknown = new Set(
    segments.map((path) => path.map(String).join('.')).filter((name) => !FIELD_NAMES.has(name)),
  );
  return [...unknown].map((name) => letterMessages.unknownField(name));
}

/** The problems of a template, by where they are: `subject` or `body`. */
export function letterTemplateProblems(
  template: LetterTemplate,
): { path: 'subject' | 'body'; message: string }[] {
  return [
    ...letterTextProblems(template.subject).map((message) => ({
      path: 'subject' as const,
      message,
    })),
    ...letterTextProblems(template.body).map((message) => ({ path: 'body' as const, message })),
  ];
}

function errorDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim();
}

/** A paragraph of a letter: a block, since the decision summary and the table are blocks too. */
const PARAGRAPH = '<div style="margin: 0 0 1em">';

/**
 * The template with its own words escaped for HTML and its line breaks kept: a blank line
 * starts a paragraph. Fields and tags are left for the engine.
 */
function htmlSource(body: string): string {
  const tokens = new Tokenizer(body).readTopLevelTokens();
  return tokens
    .map((token) =>
      TypeGuards.isHTMLToken(token)
        ? escapeHtml(token.getText())
            .replace(/\r?\n\r?\n/g, `</div>${PARAGRAPH}`)
            .replace(/\r?\n/g, '<br>')
        : token.getText(),
    )
    .join('');
}

const plainValues = (values: LetterValues) => ({
  ...values,
  decision_summary: values.decision_summary.text,
  awards_table: values.awards_table.text,
});

/**
 * A letter written from its template: the subject on one line, the body as text and as
 * HTML (every value escaped but the two blocks). Throws when the template has problems
 * (letterTemplateProblems), which a saved one never has.
 */
export function renderLetter(template: LetterTemplate, values: LetterValues): RenderedLetter {
  const plain = plainValues(values);
  const subject = renderSync(textEngine, template.subject, plain).replace(/\s+/g, ' ').trim();
  const text = renderSync(textEngine, template.body, plain);
  const html = renderSync(htmlEngine, `${PARAGRAPH}${htmlSource(template.body)}</div>`, {
    ...values,
    decision_summary: new TrustedHtml(values.decision_summary.html),
    awards_table: new TrustedHtml(values.awards_table.html),
  });
  return { subject, text, html };
}

/**
 * The awards table of a letter: one row per facility and data field asked for, with the
 * amount asked for and the amount awarded (0 when nothing is), escaped. Empty when the
 * proposal asked for nothing.
 */
export function awardsTable(requested: ResourceValues, awards: ResourceValues): LetterBlock {
  const rows: [string, string, string, string][] = [];
  for (const facility of facilitiesOf([requested, awards])) {
    const fields = new Set([
      ...Object.keys(requested[facility] ?? {}),
      ...Object.keys(awards[facility] ?? {}),
    ]);
    for (const field of [...fields].sort()) {
      const asked = requested[facility]?.[field];
      rows.push([
        facilityLabel(facility),
        field,
        asked === undefined ? 'N/A' : formatAmount(asked),
        formatAmount(awards[facility]?.[field] ?? 0),
      ]);
    }
  }
  if (rows.length === 0) return { html: '', text: '' };
  const header = ['Facility', 'Field', 'Asked for', 'Awarded'] as const;
  const cells = (row: readonly string[], tag: 'th' | 'td') =>
    `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  return {
    html: `<table>${cells(header, 'th')}${rows.map((row) => cells(row, 'td')).join('')}</table>`,
    text: [header, ...rows].map((row) => row.join('  |  ')).join('\n'),
  };
}

/** The templates a call starts with, one per outcome. */
export const DEFAULT_LETTER_TEMPLATES: Record<Outcome, LetterTemplate> = Object.fromEntries(
  OUTCOMES.map((outcome) => [outcome, defaultTemplate(outcome)]),
) as Record<Outcome, LetterTemplate>;

function defaultTemplate(outcome: Outcome): LetterTemplate {
  const opening = 'Dear {{ applicant.name }},\n\n';
  const closing = '\n\n{{ signature }}\n{{ committee.name }}';
  const subject = '{{ call.name }}: decision on {{ proposal.name }}';
  switch (outcome) {
    case 'approved':
    case 'partly_approved':
      return {
        subject,
        body:
          `${opening}The committee has decided on your proposal {{ proposal.name }} ({{ proposal.id }}) to {{ call.name }}: {{ outcome }}.\n\n` +
          `{{ decision_summary }}\n\nWhat you asked for and what you are awarded:\n\n{{ awards_table }}\n\n` +
          `You can read this letter and your proposal at {{ link }}.${closing}`,
      };
    case 'waitlisted':
      return {
        subject,
        body:
          `${opening}The committee has decided on your proposal {{ proposal.name }} ({{ proposal.id }}) to {{ call.name }}: {{ outcome }}. We will write again if time becomes free.\n\n` +
          `{{ decision_summary }}\n\nYou can read this letter and your proposal at {{ link }}.${closing}`,
      };
    case 'declined':
      return {
        subject,
        body:
          `${opening}The committee has decided on your proposal {{ proposal.name }} ({{ proposal.id }}) to {{ call.name }}: {{ outcome }}. We are sorry to bring this news.\n\n` +
          `{{ decision_summary }}\n\nYou can read this letter and your proposal at {{ link }}.${closing}`,
      };
  }
}
