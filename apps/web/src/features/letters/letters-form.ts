import type { LetterTemplates } from '@merit/contract';
import { MAX_OUTCOME_LABEL, OUTCOMES, validationMessages, type Outcome } from '@merit/domain';
import {
  letterTextProblems,
  MAX_LETTER_BODY,
  MAX_LETTER_SUBJECT,
  MAX_SIGNATURE,
} from '@merit/domain/letters';

/*
 * The letter templates editor's form (issue 29): the four templates, the call's words for
 * the outcomes and the signature as the chair types them, the checks the server makes,
 * with its messages (`letterTextProblems`), and the server's 400 put back on its field.
 */

export interface TemplateDraft {
  subject: string;
  body: string;
  /** The call's own word for the outcome in its letters; empty: the outcome's label. */
  label: string;
}

export interface LettersDraft {
  templates: Record<Outcome, TemplateDraft>;
  signature: string;
}

/** The fields of a template that can be wrong, as the server's `fields` name them. */
export type TemplateField = 'subject' | 'body' | 'label';
export type TemplateErrors = Partial<Record<TemplateField, string[]>>;

export interface LettersErrors {
  templates: Partial<Record<Outcome, TemplateErrors>>;
  signature?: string[];
}

/** The templates as the form shows them, by outcome. */
export function draftOf(saved: LetterTemplates): LettersDraft {
  const templates = {} as Record<Outcome, TemplateDraft>;
  for (const outcome of OUTCOMES) {
    const template = saved.templates.find((t) => t.outcome === outcome);
    templates[outcome] = {
      subject: template?.subject ?? '',
      body: template?.body ?? '',
      label: saved.outcomeLabels[outcome] ?? '',
    };
  }
  return { templates, signature: saved.signature };
}

/** What PUT .../letter_templates/ takes: the templates in the order of OUTCOMES. */
export function inputOf(draft: LettersDraft, version: number): LetterTemplates {
  return {
    templates: OUTCOMES.map((outcome) => ({
      outcome,
      subject: draft.templates[outcome].subject,
      body: draft.templates[outcome].body,
    })),
    signature: draft.signature,
    outcomeLabels: Object.fromEntries(
      OUTCOMES.map((outcome) => [outcome, draft.templates[outcome].label]),
    ) as Record<Outcome, string>,
    version,
  };
}

/** What a form would save, to tell whether anything changed. */
export const savedForm = (draft: LettersDraft) => JSON.stringify(inputOf(draft, 0));

/**
 * The problems of one text as the chair types it: a field or tag the letters do not know
 * (the server's own check), and, once Save was tried, a text left empty or too long.
 */
function textErrors(text: string, max: number, checked: boolean): string[] {
  if (!text.trim()) return checked ? [validationMessages.required] : [];
  if (text.trim().length > max) return [validationMessages.maxLength(max)];
  return letterTextProblems(text);
}

/**
 * The errors of the form, by outcome and field. Fields and tags are checked as the chair
 * types; an empty text only once Save was tried (`checked`), so a new card is not red.
 */
export function draftErrors(draft: LettersDraft, checked: boolean): LettersErrors {
  const templates: LettersErrors['templates'] = {};
  for (const outcome of OUTCOMES) {
    const { subject, body, label } = draft.templates[outcome];
    const errors: TemplateErrors = {};
    const subjectErrors = textErrors(subject, MAX_LETTER_SUBJECT, checked);
    const bodyErrors = textErrors(body, MAX_LETTER_BODY, checked);
    if (subjectErrors.length) errors.subject = subjectErrors;
    if (bodyErrors.length) errors.body = bodyErrors;
    if (label.trim().length > MAX_OUTCOME_LABEL)
      errors.label = [validationMessages.maxLength(MAX_OUTCOME_LABEL)];
    if (Object.keys(errors).length) templates[outcome] = errors;
  }
  const signature =
    draft.signature.length > MAX_SIGNATURE ? [validationMessages.maxLength(MAX_SIGNATURE)] : [];
  return { templates, ...(signature.length ? { signature } : {}) };
}

/** Whether the form has nothing to correct. */
export const noErrors = (errors: LettersErrors) =>
  Object.keys(errors.templates).length === 0 && errors.signature === undefined;

/**
 * A 400's `fields` by outcome: `templates.<n>.subject` names the n-th template sent, in
 * the order of OUTCOMES; `outcomeLabels.<outcome>` the call's word; what names no field
 * of the form is `rest`.
 */
export function serverErrors(fields: Record<string, string[]> | undefined): {
  errors: LettersErrors;
  rest: string[];
} {
  const errors: LettersErrors = { templates: {} };
  const rest: string[] = [];
  const add = (outcome: Outcome, field: TemplateField, messages: string[]) => {
    const own = (errors.templates[outcome] ??= {});
    own[field] = [...(own[field] ?? []), ...messages];
  };
  for (const [key, messages] of Object.entries(fields ?? {})) {
    const template = /^templates\.(\d+)\.(subject|body)$/.exec(key);
    const label = /^outcomeLabels\.(\w+)$/.exec(key);
    const outcome = template ? OUTCOMES[Number(template[1])] : undefined;
    if (template && outcome) add(outcome, template[2] as TemplateField, messages);
    else if (label && (OUTCOMES as readonly string[]).includes(label[1]!))
      add(label[1] as Outcome, 'label', messages);
    else if (key === 'signature') errors.signature = [...(errors.signature ?? []), ...messages];
    else rest.push(...messages);
  }
  return { errors, rest };
}

/** The form's errors with the server's: the form's own come last, as they are newer. */
export function mergeErrors(server: LettersErrors, own: LettersErrors): LettersErrors {
  const templates: LettersErrors['templates'] = {};
  for (const outcome of OUTCOMES) {
    const merged = { ...server.templates[outcome], ...own.templates[outcome] };
    if (Object.keys(merged).length) templates[outcome] = merged;
  }
  const signature = own.signature ?? server.signature;
  return { templates, ...(signature ? { signature } : {}) };
}

/**
 * `text` with `insert` put where the selection was (`start` to `end`), and where the
 * cursor goes after it.
 */
export function insertAt(
  text: string,
  insert: string,
  start: number,
  end: number,
): { text: string; cursor: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), cursor: from + insert.length };
}

/** How a field is written in a template. */
export const fieldText = (name: string) => `{{ ${name} }}`;
