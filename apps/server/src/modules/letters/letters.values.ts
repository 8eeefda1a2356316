import { outcomeLabel, type Outcome } from '@merit/domain';
import {
  awardsTable,
  DEFAULT_LETTER_TEMPLATES,
  renderLetter,
  type LetterTemplate,
  type LetterValues,
  type RenderedLetter,
} from '@merit/domain/letters';
import { richText } from '../files/files-access.js';
import type { CallRow } from '../calls/calls.queries.js';
import type { LetterSource, LetterTemplateRow } from './letters.queries.js';

/*
 * What a letter says: its template (the call's, else the domain's default) filled in with
 * one proposal's values. The same for the preview, a release and a resend.
 */

/** A call with what its letters name of it. */
export interface LetterCall {
  call: Pick<CallRow, 'id' | 'name' | 'letterSignature' | 'outcomeLabels' | 'lettersVersion'>;
  committeeName: string;
  templates: Map<Outcome, LetterTemplateRow>;
  publicUrl: string;
}

/** The template a call's letters of `outcome` are written from. */
export const templateFor = (
  templates: Map<Outcome, LetterTemplateRow>,
  outcome: Outcome,
): LetterTemplate => templates.get(outcome) ?? DEFAULT_LETTER_TEMPLATES[outcome];

/**
 * Rich text as plain text, for the letter's text part: the paragraphs and list items the
 * proposal extract lays out (extract-html.ts `richText`), a line each, with their bullets.
 */
export function richTextAsText(html: string | null): string {
  if (!html) return '';
  const content = richText(html) as { stack: object[] } | null;
  if (!content) return '';
  const runs = (text: unknown) =>
    Array.isArray(text) ? text.map((run: { text: string }) => run.text).join('') : String(text);
  return content.stack
    .map((block) =>
      'columns' in block
        ? (block.columns as { text: unknown }[]).map((column) => runs(column.text)).join(' ')
        : runs((block as { text: unknown }).text),
    )
    .join('\n')
    .replaceAll('\u200b', '');
}

/** The address of a proposal's page, which its letter links to. */
export const proposalLink = (publicUrl: string, callId: number, proposalId: number) =>
  `${publicUrl}/calls/${callId}/proposals/${proposalId}/`;

/** The values of one proposal's letter. */
export function letterValues(
  source: LetterSource & { outcome: Outcome },
  { call, committeeName, publicUrl }: LetterCall,
): LetterValues {
  return {
    applicant: { name: source.authorName },
    proposal: { name: source.name, id: source.proposalId },
    call: { name: call.name },
    outcome: outcomeLabel(source.outcome, call.outcomeLabels),
    decision_summary: {
      html: source.decisionSummary ?? '',
      text: richTextAsText(source.decisionSummary),
    },
    awards_table: awardsTable(source.requested, source.awards),
    committee: { name: committeeName },
    signature: call.letterSignature,
    link: proposalLink(publicUrl, call.id, source.proposalId),
  };
}

/** One proposal's letter as it is sent now. */
export const writeLetter = (
  source: LetterSource & { outcome: Outcome },
  letterCall: LetterCall,
): RenderedLetter =>
  renderLetter(templateFor(letterCall.templates, source.outcome), letterValues(source, letterCall));
