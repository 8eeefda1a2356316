import type { ErrorSchema, UiSchema } from '@rjsf/utils';
import { proposalFormContext } from '../../files/file-field-context';
import { SchemaForm } from '../../forms/schema-form/SchemaForm';
import type { Answers, EditorForm } from './editor-state';

/**
 * The form's own title is left out: the panel already heads the form with its name, and
 * a schema's title (often the same words) would stand as a second heading beneath it.
 * The form's description stays.
 */
function withoutRootTitle(uiSchema: UiSchema): UiSchema {
  return { ...uiSchema, 'ui:title': '' };
}

interface AnswersFormProps {
  /** The proposal the form's file fields upload to. */
  proposalId: number;
  form: EditorForm;
  /** Sets the form's field ids apart from those of the other forms and entries on the page. */
  idPrefix: string;
  answers: Answers;
  errors: ErrorSchema | undefined;
  readOnly: boolean;
  onChange: (answers: Answers) => void;
  /** Enter in a field: saves, as the Save button does. */
  onSave: () => void;
}

/**
 * One form's answers (or one entry's), rendered from its schema as every form of the app
 * is (SchemaForm). The editor checks the answers itself when they are saved, and hands the
 * errors in (`errors`), so a form does not need to be on screen to be checked by Save All.
 */
export function AnswersForm({
  proposalId,
  form,
  idPrefix,
  answers,
  errors,
  readOnly,
  onChange,
  onSave,
}: AnswersFormProps) {
  return (
    <SchemaForm
      schema={form.schema}
      uiSchema={withoutRootTitle(form.uiSchema)}
      formData={answers}
      idPrefix={idPrefix}
      formContext={proposalFormContext({ proposalId, formId: form.id })}
      extraErrors={errors}
      // The editor's Save checks the answers (or, with checks switched off, does not).
      noValidate
      // The tab lists the errors above the forms; each field shows its own.
      showErrorList={false}
      readonly={readOnly}
      onChange={(event) => onChange((event.formData ?? {}) as Answers)}
      onSubmit={onSave}
    >
      {/* The tab's Save buttons replace the form's own Submit. */}
      <></>
    </SchemaForm>
  );
}
