import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { formNames, forms, proposalTypeForms } from '../../db/schema.js';

/** A form of a proposal type, as checks, scores and the proposal PDF read it. */
export interface TypeFormDefinition {
  id: number;
  /** The name people see on its tab. */
  name: string;
  type: number;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  options: Record<string, unknown> | null;
  updatedAt: Date;
}

/** A proposal type's proposal or review forms, in the order the call gives them. */
export async function typeFormsOf(
  tx: Tx,
  proposalTypeId: number,
  kind: 'proposal' | 'review',
): Promise<TypeFormDefinition[]> {
  return tx
    .select({
      id: forms.id,
      name: formNames.displayName,
      type: formNames.type,
      jsonSchema: forms.jsonSchema,
      uiSchema: forms.uiSchema,
      options: forms.options,
      updatedAt: forms.updatedAt,
    })
    .from(proposalTypeForms)
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(
      and(eq(proposalTypeForms.proposalTypeId, proposalTypeId), eq(proposalTypeForms.kind, kind)),
    )
    .orderBy(asc(proposalTypeForms.position));
}
