import {
  MAX_LENGTHS,
  addErrors,
  checkText,
  validationMessages,
  type FieldErrors,
} from '../validation/fields.js';
import { isJsonObject } from './form-options.js';
import { FORM_TYPES, FORM_TYPE_LABELS, isFormType } from './form-types.js';

export const formMessages = {
  /** Spec section 5, Forms: the form builder refuses to save while a schema has errors. */
  notSaved: 'Form not saved, please check the schema for errors.',
  /** Spec section 8: the live preview's message, followed by the schema error. */
  schemaErrorPrefix: 'There is an error in the schema, ',
  schemaError: (detail: string) => `There is an error in the schema, ${detail}`,
  notObject: 'This must be a JSON object.',
  schemaRootNotObject:
    'The schema must describe an object: set "type": "object" at the top level and list the fields under "properties".',
  propertiesNotObject: '"properties" must be a JSON object of field names to field schemas.',
  type: `Choose a type: ${FORM_TYPES.map((t) => `${t} ${FORM_TYPE_LABELS[t]}`).join(', ')}.`,
  nameFixed:
    'The name of a form name cannot change after it is created. Create a new form name instead.',
  typeFixed:
    'The type of a form name cannot change after it is created. Create a new form name instead.',
  nameTaken: 'A form name with this name already exists.',
  formNameMissing: 'There is no form name with this id.',
  versionTaken: 'This form name already has a form with this version. Choose another version.',
  formNameInUse:
    'In use: forms use this form name, so it cannot be deleted. Delete those forms first.',
  formInUse: 'In use: a call uses this form, so it cannot be changed or deleted.',
} as const;

export interface FormNameInput {
  name?: string | null;
  display_name?: string | null;
  type?: number | null;
}

export interface StoredFormName {
  name: string;
  type: number;
}

/**
 * A form name's fields (spec section 5, Forms): name and display name required, at most
 * 200 each, and a type from 0 to 5. Given the stored form name, the input is an edit:
 * only the display name may change, and a different name or type is refused (the web
 * sends them back unchanged; leaving them out is fine too).
 */
export function validateFormName(input: FormNameInput, stored?: StoredFormName): FieldErrors {
  const errors: FieldErrors = {};
  const text = { required: true, max: MAX_LENGTHS.formName };
  if (stored) {
    if (input.name != null && input.name.trim() !== stored.name)
      addErrors(errors, 'name', [formMessages.nameFixed]);
    if (input.type != null && input.type !== stored.type)
      addErrors(errors, 'type', [formMessages.typeFixed]);
  } else {
    addErrors(errors, 'name', checkText(input.name, text));
    if (input.type == null) addErrors(errors, 'type', [validationMessages.required]);
    else if (!isFormType(input.type)) addErrors(errors, 'type', [formMessages.type]);
  }
  addErrors(errors, 'display_name', checkText(input.display_name, text));
  return errors;
}

/** A form's version: required, at most 20 characters. */
export const checkFormVersion = (version: string | null | undefined) =>
  checkText(version, { required: true, max: MAX_LENGTHS.formVersion });

/**
 * What the domain can tell about a JSON schema without a validator: it is an object
 * describing an object whose fields are its top-level `properties`, because responses are
 * stored as one JSON object per form and options name those fields. Whether the schema
 * compiles is the JSON Schema validator's question (the server's ajv; the web's preview).
 */
export function checkSchemaShape(jsonSchema: unknown): string[] {
  if (!isJsonObject(jsonSchema)) return [formMessages.notObject];
  if (jsonSchema.type !== 'object') return [formMessages.schemaRootNotObject];
  if (jsonSchema.properties !== undefined && !isJsonObject(jsonSchema.properties))
    return [formMessages.propertiesNotObject];
  return [];
}
