import { formMessages } from '@merit/domain';
import { Alert, Box } from '@mui/material';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { Component, useState, type ReactNode } from 'react';
import { SchemaForm } from './schema-form/SchemaForm';

interface FormPreviewProps {
  /** A schema that passed `schemaProblem`. */
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: unknown;
}

/**
 * The form as authors and reviewers will see it (react-jsonschema-form, MUI theme).
 * Submitting checks the answers against the schema; nothing is sent anywhere.
 */
export function FormPreview(props: FormPreviewProps) {
  return (
    // Remounted on every change of the definition, so a crash clears once it is fixed, and
    // answers checked against the old definition are not reported on.
    <PreviewErrorBoundary key={JSON.stringify([props.schema, props.uiSchema, props.formData])}>
      <PreviewForm {...props} />
    </PreviewErrorBoundary>
  );
}

function PreviewForm({ schema, uiSchema, formData }: FormPreviewProps) {
  const [checked, setChecked] = useState(false);
  const [attempted, setAttempted] = useState(false);
  return (
    <>
      {checked && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setChecked(false)}>
          These answers are valid. The preview does not save them.
        </Alert>
      )}
      <SchemaForm
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        showErrorList="top"
        // Quiet until the first check; after it, each answer clears its own error as it is
        // fixed, rather than the errors of the last check staying until the next.
        liveValidate={attempted ? 'onChange' : false}
        onChange={() => setChecked(false)}
        onSubmit={() => {
          setAttempted(true);
          setChecked(true);
        }}
        // The errors show on the form; rjsf would also log each failed check as an error.
        onError={() => {
          setAttempted(true);
          setChecked(false);
        }}
      />
    </>
  );
}

interface BoundaryState {
  error: Error | null;
}

/**
 * A schema can be valid JSON Schema and still break the form while it renders (a
 * `ui:widget` that does not exist, a `ui:order` without a field): say so in the spec's
 * words instead of losing the page.
 */
class PreviewErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (this.state.error) {
      return (
        <Alert severity="error" role="status">
          {previewSchemaError(this.state.error.message)}
        </Alert>
      );
    }
    return <Box>{this.props.children}</Box>;
  }
}

/** Spec section 8: "There is an error in the schema, " followed by the message. */
export function previewSchemaError(detail: string): string {
  const message = detail.replace(/^There is an error in the schema, /, '');
  return formMessages.schemaError(message.charAt(0).toLowerCase() + message.slice(1));
}
