import { Box, Divider, Stack, Typography } from '@mui/material';
import { RichDescription } from '@rjsf/core';
import type { FormProps } from '@rjsf/core';
import Form, { Widgets } from '@rjsf/mui';
import type { DescriptionFieldProps, TitleFieldProps, WidgetProps } from '@rjsf/utils';
import { FileFieldWidget } from '../../files/FileFieldWidget';
import { readableErrors } from '../json-schema/error-messages';
import { formValidator } from '../json-schema/rjsf-validator';
import { WordLimitedTextarea } from './WordLimitedTextarea';

/**
 * The MUI theme's title, as an `h3`: each form sits under its page's `h2`, and the theme's `h5` would skip heading levels for
 * screen-reader users.
 */
function TitleFieldTemplate({ id, title, optionalDataControl }: TitleFieldProps) {
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
function DescriptionFieldTemplate({ id, description, registry, uiSchema }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Typography id={id} variant="subtitle2" component="div" sx={{ mt: 0.625 }}>
      <RichDescription description={description} registry={registry} uiSchema={uiSchema} />
    </Typography>
  );
}

const MuiRadioWidget = Widgets.RadioWidget!;

/**
 * The MUI theme's radio buttons, their group named by the field's label: the theme labels
 * the group with a <label for> that names nothing a screen reader announces, so a score
 * of "1 2 3 4 5" was read without its question.
 */
function RadioWidget(props: WidgetProps) {
  const mui = (props.options.mui ?? {}) as Record<string, unknown>;
  const slots = (mui.rjsfSlotProps ?? {}) as Record<string, object | undefined>;
  const named = props.label
    ? {
        ...props.options,
        mui: {
          ...mui,
          rjsfSlotProps: {
            ...slots,
            radioGroup: { 'aria-label': props.label, ...slots.radioGroup },
          },
        },
      }
    : props.options;
  return <MuiRadioWidget {...props} options={named} />;
}

// rjsf picks its FileWidget for `format: "data-url"` and `"ui:widget": "file"`.
const widgets = {
  TextareaWidget: WordLimitedTextarea,
  FileWidget: FileFieldWidget,
  RadioWidget,
};
const templates = { TitleFieldTemplate, DescriptionFieldTemplate };

/**
 * Every form the app renders from a form definition: the builder's preview, and the
 * proposal (and, later, review) editors. react-jsonschema-form's MUI theme with the
 * app's CSP-safe validator (the CSP forbids the eval that @rjsf/validator-ajv8 uses), the
 * errors in words for people, headings in the page's outline, the word-limited
 * textarea and the file field that uploads, so a form reads and behaves the same
 * wherever it appears.
 */
export function SchemaForm(props: Omit<FormProps, 'validator'>) {
  return (
    <Form
      validator={formValidator}
      transformErrors={readableErrors}
      // The browser's own validation would stop the submit before the form's error list
      // shows (ARCHITECTURE.md).
      noHtml5Validate
      widgets={widgets}
      templates={templates}
      {...props}
    />
  );
}
