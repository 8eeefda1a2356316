import type { formOrder } from '@merit/contract';
import { isJsonObject, reviewScore, SCORE_METHODS, type ScoreFormOptions } from '@merit/domain';
import type { z } from 'zod';
import type { DraftState } from '../proposals/editor/editor-state';

/** GET /proposal_form_order/ and /review_form_order/ (the contract names no type for it). */
export type FormOrder = z.infer<typeof formOrder>;
export type OrderedForm = FormOrder[number]['forms'][number];

/** The forms of one proposal type in the call's order; none when the type is unknown. */
export const formsOfType = (order: FormOrder, typeId: number | undefined): OrderedForm[] =>
  order.find((type) => type.typeId === typeId)?.forms ?? [];

/** A Review Score Form (type 3) and how it makes the review's score. */
export interface ScoreForm {
  id: number;
  options: ScoreFormOptions;
}

function scoreOptions(options: unknown): ScoreFormOptions | null {
  if (!isJsonObject(options)) return null;
  const { method, fields } = options;
  if (!SCORE_METHODS.includes(method as ScoreFormOptions['method'])) return null;
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string')) return null;
  return { method: method as ScoreFormOptions['method'], fields };
}

/** The score forms among a type's review forms, with their options. */
export function scoreFormsOf(forms: readonly OrderedForm[]): ScoreForm[] {
  return forms.flatMap((form) => {
    const options = form.type === 3 ? scoreOptions(form.options) : null;
    return options ? [{ id: form.id, options }] : [];
  });
}

/**
 * The review's score as the reviewer's answers stand, worked out as the server will work
 * it out when they are saved (the domain's `reviewScore`): null until a score field has a
 * number.
 */
export function liveScore(scoreForms: readonly ScoreForm[], drafts: DraftState): number | null {
  return reviewScore(
    scoreForms.map(({ id, options }) => ({
      options,
      data: drafts[id]?.entries[0]?.draft ?? {},
    })),
  ).score;
}

/**
 * What people call each score field: the title its score form gives it (the UI schema's
 * `ui:title` first, as the form shows it), by field name, over every type of the call.
 * A field without a title keeps its name.
 */
export function scoreLabels(order: FormOrder | undefined): Map<string, string> {
  const labels = new Map<string, string>();
  for (const type of order ?? []) {
    for (const form of type.forms) {
      const options = form.type === 3 ? scoreOptions(form.options) : null;
      if (!options) continue;
      const properties = (form.jsonSchema.properties ?? {}) as Record<string, unknown>;
      for (const field of options.fields) {
        if (labels.has(field)) continue;
        const property = properties[field];
        const ui = form.uiSchema[field];
        const title =
          (isJsonObject(ui) && ui['ui:title']) || (isJsonObject(property) && property.title);
        labels.set(field, typeof title === 'string' && title ? title : field);
      }
    }
  }
  return labels;
}
