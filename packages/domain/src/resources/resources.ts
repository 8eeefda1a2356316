import type { ResourceFormOptions } from '../forms/form-options.js';

/**
 * Resources (ARCHITECTURE.md "Resources"): a resource form (types 4 and 5) names the
 * facility its entry asks for by the value of its `institution_field`, and the amounts
 * asked for by its numeric `data_fields`. A proposal's values sum per facility and data
 * field over its resource forms and their entries; a call's totals sum those over its
 * submitted and reviewed proposals. A field left empty is missing (N/A), never zero.
 */

/** Per facility, per data field, the amount asked for: `{facility: {field: number}}`. */
export type ResourceValues = Record<string, Record<string, number>>;

/**
 * The facility of a form whose `institution_field` is null, or of an entry that names
 * none: one unnamed facility, keyed by the empty string, which no named facility can be.
 * The web shows it as UNNAMED_FACILITY_LABEL.
 */
export const UNNAMED_FACILITY = '';
export const UNNAMED_FACILITY_LABEL = 'Facility';

/** A facility's name as people read it: the unnamed one as UNNAMED_FACILITY_LABEL. */
export const facilityLabel = (facility: string) =>
  facility === UNNAMED_FACILITY ? UNNAMED_FACILITY_LABEL : facility;

/** One saved entry of a resource form: the form's options and the entry's answers. */
export interface ResourceEntry {
  options: ResourceFormOptions;
  data: Record<string, unknown>;
}

/**
 * The facility an entry names: the text of its facility field (a number reads as its
 * digits); the unnamed facility when the form has no facility field or the entry left it
 * empty. The server's totals query (proposals.queries.ts `resourceTotalsOf`) reads it the
 * same way; a server test holds the two to the same answers.
 */
export function facilityOf(entry: ResourceEntry): string {
  const field = entry.options.institution_field;
  if (field === null) return UNNAMED_FACILITY;
  const value = entry.data[field];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return UNNAMED_FACILITY;
}

/** Adds `amount` to `values[facility][field]`, making the facility when it is new. */
function add(values: ResourceValues, facility: string, field: string, amount: number) {
  const fields = (values[facility] ??= {});
  fields[field] = (fields[field] ?? 0) + amount;
}

/**
 * A proposal's resource values from the saved entries of its resource forms: each data
 * field's numbers summed per facility. A facility named by an entry without any number
 * still appears, with no fields, so the proposal shows N/A under it.
 */
export function resourceValues(entries: readonly ResourceEntry[]): ResourceValues {
  const values: ResourceValues = {};
  for (const entry of entries) {
    const facility = facilityOf(entry);
    values[facility] ??= {};
    for (const field of entry.options.data_fields) {
      const amount = entry.data[field];
      if (typeof amount === 'number' && Number.isFinite(amount))
        add(values, facility, field, amount);
    }
  }
  return values;
}

/** A proposal as the call's totals read it: its stored state and its resource values. */
export interface ProposalResources {
  stateVal: number;
  values: ResourceValues;
}

/** Drafts ask for nothing yet: only submitted (and so reviewed) proposals count. */
const counts = (proposal: ProposalResources) => proposal.stateVal >= 1;

/**
 * A call's resource totals: per facility and data field, the sum over its submitted and
 * reviewed proposals. Drafts are left out; a field no counted proposal gave a number is
 * absent (N/A).
 */
export function resourceTotals(proposals: readonly ProposalResources[]): ResourceValues {
  const totals: ResourceValues = {};
  for (const proposal of proposals.filter(counts)) {
    for (const [facility, fields] of Object.entries(proposal.values)) {
      totals[facility] ??= {};
      for (const [field, amount] of Object.entries(fields)) add(totals, facility, field, amount);
    }
  }
  return totals;
}

/**
 * The facilities some values name, in one order for every list and export: the unnamed
 * facility first, then by name.
 */
export function facilitiesOf(values: readonly ResourceValues[]): string[] {
  const names = new Set(values.flatMap((v) => Object.keys(v)));
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A resource form's schemas and options: where its data fields' titles are written. */
export interface ResourceFormSchema {
  jsonSchema: Record<string, unknown>;
  uiSchema?: Record<string, unknown> | null;
  options: ResourceFormOptions;
}

/**
 * The titles of the resource forms' data fields by field name, as the applicant saw them
 * on the form (`ui:title`, else the JSON Schema's `title`): the chair's list, totals and
 * downloads name a resource column by its title, not its JSON key. Worked out once per
 * form, not per row; a field without a title is left out, and shows as its key
 * (`resourceFieldTitle`). Two forms that title one field differently: the first form's.
 */
export function resourceFieldTitles(forms: readonly ResourceFormSchema[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const form of forms) {
    const properties = (form.jsonSchema.properties ?? {}) as Record<string, unknown>;
    const ui = form.uiSchema ?? {};
    for (const field of form.options.data_fields) {
      if (field in titles) continue;
      const title = titleOf(ui[field]) ?? titleOf(properties[field]);
      if (title !== undefined) titles[field] = title;
    }
  }
  return titles;
}

/** A schema node's title, when it is a non-blank text. */
function titleOf(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  const title = record['ui:title'] ?? record.title;
  return typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined;
}

/** A data field as people read it: its title, or its key when the form gives none. */
export const resourceFieldTitle = (titles: Readonly<Record<string, string>>, field: string) =>
  Object.hasOwn(titles, field) ? titles[field]! : field;
