import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { PERSONA_DESCRIPTIONS, PERSONAS } from './personas.js';
import type { Row } from './rows.js';

/** The committed page the table is written to. */
export const DOC_PATH = path.resolve(import.meta.dirname, '../../../../docs/authorization.md');

/** What rewrites it: `UPDATE_AUTHORIZATION_DOC=1` on this test, as the root script does. */
export const UPDATE_COMMAND = 'npm run docs:authorization';

const rowLabel = (row: Row) => `\`${row.route}\`${row.note ? ` (${row.note})` : ''}`;

/** The table itself, one line per row and one column per persona. */
function matrix(rows: readonly Row[]): string {
  const header = `| Route | ${PERSONAS.join(' | ')} |`;
  const rule = `| --- | ${PERSONAS.map(() => '---:').join(' | ')} |`;
  const lines = rows.map(
    (row) => `| ${rowLabel(row)} | ${PERSONAS.map((p) => row.expect[p]).join(' | ')} |`,
  );
  return [header, rule, ...lines].join('\n');
}

/** docs/authorization.md, formatted as prettier formats it, so `prettier --check` agrees. */
export async function authorizationDoc(rows: readonly Row[]): Promise<string> {
  const routes = new Set(rows.map((r) => r.route)).size;
  const cells = rows.length * PERSONAS.length;
  const success = rows.reduce(
    (n, row) => n + PERSONAS.filter((p) => row.expect[p] >= 200 && row.expect[p] < 300).length,
    0,
  );
  const text = `# Authorization matrix

Every route of the API against ${PERSONAS.length} kinds of caller (${PERSONAS.join(', ')}): the
HTTP status each one gets for a request that is otherwise valid. ${PERSONAS.length} personas x
${rows.length} rows (${routes} routes, some in several situations) = ${cells} cells, ${success} of
them 2xx. \`apps/server/test/authorization.api.test.ts\` makes every one of these requests, on
PGlite and on PostgreSQL, and fails when a status differs from this table, when the server
registers a route the table does not list, when an answer shows a caller something they may
not see (below), or when this page differs from the table. \`${UPDATE_COMMAND}\` rewrites it
(it runs that test alone with \`UPDATE_AUTHORIZATION_DOC=1\`).

## Personas

Each cell has a new caller of its kind with a new token; a row that acts on a proposal
makes one for each cell, in that caller's relation to it.

| Persona | Who |
| --- | --- |
${PERSONAS.map((p) => `| ${p} | ${PERSONA_DESCRIPTIONS[p]} |`).join('\n')}

## What an answer may not show

Each answer, body and headers (a PDF's text too), is searched for canaries, distinctive
strings seeded in the data, that the caller may not see. Every proposal a row makes carries a canary decision summary, and once submitted a review by
a canary reviewer: a comment, a score, and the reviewer's name, email and user id, and a canary
decision: an outcome awarding a canary facility a canary amount, with a canary note. The rows of
the letters' routes add decision letters (sent, failed or superseded) whose text and PDF carry a
canary. An author
or collaborator made for it has a canary email. A submitted proposal and a draft with
canaries sit in each call too: one open for submission, two in their review period (one of
them open to all members), one closed, and one of the other committee. By the spec (section 6) and ARCHITECTURE.md
("Visibility", "Roles"):

- Reviews, scores and reviewer identities: never to the proposal's author or collaborators,
  whatever else they are, nor to anyone with a confirmed conflict of interest with it
  (chairs and admins too); to the chairs of its committee and admins; to the members who may
  review it now (in its review period: assigned, or any member when the call's review is
  open to all).
- A decision summary: to its author and collaborators once the call is closed, not before; to
  the chairs of its committee and admins but those with a conflict of interest with it; to
  nobody else.
- An outcome, its awards and its letter: to its author and collaborators once the call is
  closed and its chairs have released the decisions, not before; to the chairs of its committee
  and admins but those with a conflict of interest with it; to nobody else. The notes on its
  awards: never to its author and collaborators.
- The emails of a proposal's people: to whoever sees the proposal (its people, the chairs of
  its committee and admins, its committee's members once it is submitted).
- The email of a plain or deactivated user (a canary too), on no committee and no proposal: to
  themselves and admins.

The conflicted personas' conflict is with the proposal the row makes for them: the other
proposals of the world are theirs to see as their role allows. An answer that lists the
call's committee by name and id (the applicants' Conflicts panel, which names every member
by design, and the chairs' Conflicts page's member filter) is not searched for the canary reviewers' names and ids there, which say only
that they sit on the committee; their emails and everything else still are.

## The table

${matrix(rows)}
`;
  const options = await resolveConfig(DOC_PATH);
  // Prose wrapped at the print width here; the repository's `proseWrap: preserve` keeps it so.
  return format(text, { ...options, proseWrap: 'always', filepath: DOC_PATH });
}

/** The table alone, for the test's output. */
export const printableMatrix = async (rows: readonly Row[]) =>
  format(matrix(rows), { parser: 'markdown', printWidth: 100 });
