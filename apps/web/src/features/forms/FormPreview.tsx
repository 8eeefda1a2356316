import { formMessages } from '@merit/domain';
import { Alert, Box, Divider, Stack, Typography } from '@mui/material';
import { RichDescription } from '@rjsf/core';
import Form from '@rjsf/mui';
import type { DescriptionFieldProps, RJSFSchema, TitleFieldProps, UiSchema } from '@rjsf/utils';
import { Component, useState, type ReactNode } from 'react';
import { readableErrors } from './json-schema/error-messages';
import { formValidator } from './json-schema/rjsf-validator';

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
      <Form
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={formValidator}
        transformErrors={readableErrors}
        // The browser's own validation would stop the submit before the form's error
        // list shows (ARCHITECTURE.md).
        noHtml5Validate
        showErrorList="top"
        // Quiet until the first check; after it, each answer clears its own error as it is
        // fixed, rather than the errors of the last check staying until the next.
        liveValidate={attempted ? 'onChange' : false}
        templates={{ TitleFieldTemplate, DescriptionFieldTemplate }}
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

/**
 * The MUI theme's title, as an `h3`: the preview (and each tab of the proposal editor)
 * sits under the page's `h2`, and the theme's `h5` would skip heading levels for
 * screen-reader users.
 */
export function TitleFieldTemplate({ id, title, optionalDataControl }: TitleFieldProps) {
  return (
    <Box id={id} sx={{ mb: 1, mt: 1 }}>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="h5" component="h3" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {optionalDataControl}
      </Stack>
      <Divider />
    </Box>
  );
}

/** The MUI theme's description as text: the theme's `subtitle2` would make it an `h6`. */
export function DescriptionFieldTemplate({
  id,
  description,
  registry,
  uiSchema,
}: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Typography id={id} variant="subtitle2" component="div" sx={{ mt: 0.625 }}>
      <RichDescription description={description} registry={registry} uiSchema={uiSchema} />
    </Typography>
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
