import {
  facilitiesOf,
  resourceFieldTitles,
  storedOptions,
  type ResourceFormOptions,
  type ResourceValues,
} from '@merit/domain';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { idsOfCall, ofCall } from './proposals.queries.js';
import {
  formNames,
  forms,
  proposalResponses,
  proposalTypeForms,
  proposalTypes,
  proposals,
} from '../../db/schema.js';

/*
 * A call's resources in SQL: what each proposal asks of each facility, the call's totals
 * and the amount a chair sorts by. The domain's `resourceTotals` works the totals out
 * from the rows' values the same way; resource-totals.api.test.ts, beside this file,
 * holds the two to the same answers.
 */

/** The resource forms (types 4 and 5): what the chair's resource columns add up. */
const RESOURCE_FORM_TYPES = [4, 5];

/** A saved entry of a resource form, with the form's options, of one proposal. */
export interface ResourceEntryRow {
  proposalId: number;
  options: ResourceFormOptions;
  data: Record<string, unknown>;
}

/** The saved entries of the resource forms of some proposals, in one query. */
export async function resourceEntriesOf(
  tx: Tx,
  proposalIds: number[],
): Promise<ResourceEntryRow[]> {
  if (proposalIds.length === 0) return [];
  return resourceEntriesWhere(tx, inArray(proposalResponses.proposalId, proposalIds));
}

/**
 * The saved entries of the resource forms of every proposal of a call (of one of its
 * types with `typeId`), in one query.
 */
export async function resourceEntriesOfCall(
  tx: Tx,
  callId: number,
  typeId?: number,
): Promise<ResourceEntryRow[]> {
  return resourceEntriesWhere(
    tx,
    inArray(proposalResponses.proposalId, idsOfCall(tx, callId, typeId)),
  );
}

async function resourceEntriesWhere(tx: Tx, ofProposals: SQL): Promise<ResourceEntryRow[]> {
  const rows = await tx
    .select({
      proposalId: proposalResponses.proposalId,
      options: forms.options,
      data: proposalResponses.data,
    })
    .from(proposalResponses)
    .innerJoin(forms, eq(forms.id, proposalResponses.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(and(ofProposals, inArray(formNames.type, RESOURCE_FORM_TYPES)))
    .orderBy(
      asc(proposalResponses.proposalId),
      asc(proposalResponses.formId),
      asc(proposalResponses.entryIndex),
    );
  return rows.map((r) => ({
    proposalId: r.proposalId,
    options: storedOptions<ResourceFormOptions>(r.options),
    data: r.data,
  }));
}

/** A resource form of a call, with its options and the titles of its data fields. */
export interface ResourceForm {
  id: number;
  options: ResourceFormOptions;
  /** Its data fields' titles by key (`resourceFieldTitles`), worked out once per form. */
  titles: Record<string, string>;
}

/** The resource forms of a call's proposal types, with their options, each once. */
export async function resourceFormsOfCall(tx: Tx, callId: number): Promise<ResourceForm[]> {
  const rows = await tx
    .select({
      id: forms.id,
      options: forms.options,
      jsonSchema: forms.jsonSchema,
      uiSchema: forms.uiSchema,
    })
    .from(proposalTypeForms)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposalTypeForms.proposalTypeId))
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      and(
        eq(proposalTypes.callId, callId),
        eq(proposalTypeForms.kind, 'proposal'),
        inArray(formNames.type, RESOURCE_FORM_TYPES),
      ),
    );
  // Deduplicated here: a form may serve several types, and json has no equality for DISTINCT.
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...byId.values()]
    .sort((a, b) => a.id - b.id)
    .map((r) => {
      const options = storedOptions<ResourceFormOptions>(r.options);
      const titles = resourceFieldTitles([
        { jsonSchema: r.jsonSchema, uiSchema: r.uiSchema, options },
      ]);
      return { id: r.id, options, titles };
    });
}

/** The titles of the data fields of some resource forms: the first form's of a shared field. */
export function titlesOfForms(resourceForms: readonly ResourceForm[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const form of resourceForms)
    for (const [field, title] of Object.entries(form.titles)) titles[field] ??= title;
  return titles;
}

/** An entry's answer to `field`, as JSON (the name is a parameter, never SQL). */
export const answer = (field: string) => sql`(${proposalResponses.data} -> ${field}::text)`;

/**
 * The facility of a resource entry in SQL, as the domain's `facilityOf` reads it: the
 * text (or number) in its form's facility field, else the unnamed facility ''.
 */
export function facilitySql(resourceForms: readonly ResourceForm[]) {
  const cases = resourceForms.map(({ id, options }) => {
    const field = options.institution_field;
    if (field === null) return sql`when ${id}::int then ''`;
    return sql`when ${id}::int then (case when jsonb_typeof(${answer(field)}) in ('string', 'number')
      then ${proposalResponses.data} ->> ${field}::text else '' end)`;
  });
  return sql<string>`(case ${proposalResponses.formId} ${sql.join(cases, sql` `)} else '' end)`;
}

/**
 * A call's resource totals, summed in the database (10,000 proposals must not travel to
 * the app to be added up): per facility and data field, the sum over submitted
 * proposals, as the domain's `resourceTotals` adds them; resource-totals.api.test.ts,
 * beside this file, holds the two to the same answers. Also names every facility any
 * proposal names, drafts' too, for the list's columns. The call's resource forms are
 * read first, so the sums are plain columns of one grouped scan (one per data field), not
 * a JSON function per entry; a caller that has read them already passes them in. With
 * `typeId`, the same over that type's proposals only (the chair's export of one type).
 */
export async function resourceTotalsOf(
  tx: Tx,
  callId: number,
  knownForms?: readonly ResourceForm[],
  typeId?: number,
): Promise<{ totals: ResourceValues; facilities: string[]; titles: Record<string, string> }> {
  const resourceForms = knownForms ?? (await resourceFormsOfCall(tx, callId));
  if (resourceForms.length === 0) return { totals: {}, facilities: [], titles: {} };
  const submitted = sql`${proposals.stateVal} >= 1`;
  const formsOfField = new Map<string, number[]>();
  for (const form of resourceForms)
    for (const field of form.options.data_fields)
      formsOfField.set(field, [...(formsOfField.get(field) ?? []), form.id]);
  const fields = [...formsOfField.keys()];
  const sums = Object.fromEntries(
    fields.map((field, i) => [
      `sum${i}`,
      sql<number | null>`sum((${proposalResponses.data} ->> ${field}::text)::double precision)
        filter (where ${submitted}
          and ${inArray(proposalResponses.formId, formsOfField.get(field)!)}
          and jsonb_typeof(${answer(field)}) = 'number')`,
    ]),
  );
  const rows = await tx
    .select({
      facility: facilitySql(resourceForms),
      counted: sql<boolean>`bool_or(${submitted})`,
      ...sums,
    })
    .from(proposalResponses)
    .innerJoin(proposals, eq(proposals.id, proposalResponses.proposalId))
    .where(
      and(
        ofCall(callId, typeId),
        inArray(
          proposalResponses.formId,
          resourceForms.map((f) => f.id),
        ),
      ),
    )
    // By position: the facility expression holds parameters, so it cannot be repeated.
    .groupBy(sql`1`);
  const totals: ResourceValues = {};
  for (const row of rows) {
    if (!row.counted) continue;
    const byField = (totals[row.facility] ??= {});
    const columns: Record<string, unknown> = row;
    fields.forEach((field, i) => {
      const total = columns[`sum${i}`];
      if (total !== null && total !== undefined) byField[field] = Number(total);
    });
  }
  const named: ResourceValues = Object.fromEntries(rows.map((r) => [r.facility, {}]));
  return { totals, facilities: facilitiesOf([named]), titles: titlesOfForms(resourceForms) };
}

/**
 * A chair's sort by one resource column (`sort=resource`): the call's resource forms, and
 * the column's facility and data field, which the service has checked are the call's.
 */
export interface ResourceSort {
  forms: readonly ResourceForm[];
  facility: string;
  field: string;
}

/**
 * Each proposal of a call with its amount in one resource column, as
 * `"resource_amounts"."amount"`: the sum of its entries' numbers in data field `field`,
 * over the entries of the forms that have that field and name facility `facility`, as the
 * domain's `resourceValues` adds them (chair-sort-export.api.test.ts holds the two to the
 * same order). A proposal without a number there has no row (N/A). One grouped scan of
 * the call's resource entries, as `reviewScoresOfCall` is for the score.
 *
 * Which entries count is a FILTER and a HAVING, not a WHERE: PostgreSQL cannot estimate
 * conditions on JSON values and guesses a few rows, then joins the list's 30,000
 * proposals to the thousands of amounts by a nested loop (17 s at 30,000, against 0.2 s
 * by a hash join). Grouped over every resource entry of the call, the estimate is the
 * call's proposals, as it is. The FILTER is checked before the cast, so only numbers are
 * cast.
 */
export function resourceAmountsOfCall(callId: number, sort: ResourceSort) {
  const withField = sort.forms.filter((form) => form.options.data_fields.includes(sort.field));
  if (withField.length === 0)
    return sql`(select null::int as "proposal_id", null::double precision as "amount" where false) as "resource_amounts"`;
  const counts = sql`jsonb_typeof(${answer(sort.field)}) = 'number'
      and ${facilitySql(withField)} = ${sort.facility}::text`;
  return sql`(
    select ${proposalResponses.proposalId} as "proposal_id",
      sum((${proposalResponses.data} ->> ${sort.field}::text)::double precision)
        filter (where ${counts}) as "amount"
    from ${proposalResponses} inner join "proposals" p on p."id" = ${proposalResponses.proposalId}
    where p."call_id" = ${callId}
      and ${inArray(
        proposalResponses.formId,
        withField.map((form) => form.id),
      )}
    group by ${proposalResponses.proposalId}
    having bool_or(${counts})
  ) as "resource_amounts"`;
}
