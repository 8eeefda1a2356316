import { answerErrorMessage, fieldLabel } from '@merit/domain';
import type { ErrorTransformer, RJSFValidationError } from '@rjsf/utils';

/**
 * The validator's errors in words for the person filling in a form. The validator speaks
 * ajv's language (`must have required property 'Project title'`), as the builder's schema
 * checks quote it; people answering a form get `Project title is required.`, worded by
 * the domain's `answerErrorMessage`, as the server words the errors of a save it refuses.
 * Every form rendered from a schema with `formValidator` (the builder's preview, and the
 * proposal and review editors to come) passes this as its `transformErrors`, so they all
 * say it the same way.
 */
export const readableErrors: ErrorTransformer = (errors) =>
  errors.map((error) => {
    const message = readableMessage(error);
    // `message` shows under the field, `stack` in the list above the form.
    return { ...error, message, stack: message };
  });

/**
 * One error (ajv's keyword and params, as rjsf passes them on) as a sentence, named by
 * the title rjsf found (the UI schema's or the schema's) or else by its place.
 */
export function readableMessage(error: RJSFValidationError): string {
  const path = (error.property ?? '').split('.').filter(Boolean);
  return answerErrorMessage(
    {
      keyword: error.name ?? '',
      params: (error.params ?? {}) as Record<string, unknown>,
      message: error.message,
    },
    fieldLabel(path, error.title),
  );
}
