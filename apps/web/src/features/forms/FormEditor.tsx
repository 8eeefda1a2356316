import type { Form, FormExample, FormName } from '@merit/contract';
import {
  checkOptionsShape,
  FORM_TYPE_LABELS,
  hasOptions,
  isScoreForm,
  MAX_LENGTHS,
  type FieldErrors,
  type FormOptions,
  type FormType,
} from '@merit/domain';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { Alert, Box, Button, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ApiError, errorMessages, isApiError } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorList } from '../../components/ErrorList';
import { fieldMessages } from '../../components/form/field-messages';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useNotify } from '../../components/notifications/notification-context';
import {
  checkDraft,
  defaultOptions,
  FORM_FIELD_LABELS,
  jsonSchemaError,
  objectError,
  optionErrors,
  parseJson,
  uiOrderProblem,
  pretty,
  type FormDraft,
} from './form-draft';
import { FormNameDialog } from './FormNameDialog';
import { FormPreview, previewSchemaError } from './FormPreview';
import { formKeys, saveForm } from './forms.api';
import { JsonEditor } from './JsonEditor';
import { LoadExampleButton } from './LoadExampleButton';
import { OptionsEditor } from './OptionsEditor';

interface FormEditorProps {
  formNames: readonly FormName[];
  /** The saved form being edited; a new form without it. */
  form?: Form;
  /** Where a new form starts (a new version of another form); the defaults without it. */
  initial: FormDraft;
}

type EditorTab = 'jsonSchema' | 'uiSchema' | 'initialData' | 'options';

/** Keeps options that fit the new type (score or resource), otherwise starts afresh. */
function optionsFor(type: FormType | undefined, options: FormOptions | null) {
  if (type === undefined || !hasOptions(type)) return null;
  if (options && isScoreForm(type) === 'method' in options) return options;
  return defaultOptions(type);
}

const formNameLabel = (formName: FormName) =>
  `${formName.display_name} (${formName.name}) · ${FORM_TYPE_LABELS[formName.type]}`;

/**
 * The form editor of /forms/new and /forms/{formId}/ (spec section 2): form name and
 * version, JSON editors for the schema, the UI schema and the initial data, the options
 * of types 3 to 5, and a live preview. A form with an editor error is not saved.
 */
export function FormEditor({ formNames, form, initial }: FormEditorProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [tab, setTab] = useState<EditorTab>('jsonSchema');
  const [example, setExample] = useState<FormExample | null>(null);
  const [confirmExample, setConfirmExample] = useState(false);
  const [suggestion, setSuggestion] = useState<FormExample | null>(null);
  const [creatingName, setCreatingName] = useState(false);
  const readOnly = form?.isUsed ?? false;
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

  const mutation = useMutation({
    mutationFn: async (toSave: FormDraft) => {
      const check = checkDraft(toSave, formNames, form?.id);
      if (!check.ok) {
        throw new ApiError(0, {
          detail: check.detail,
          code: 'validation_error',
          fields: check.fields,
        });
      }
      return { form: await saveForm(check.body), draft: toSave };
    },
    onSuccess: ({ form: savedForm, draft: savedDraft }) => {
      queryClient.setQueryData(formKeys.form(savedForm.id), savedForm);
      void queryClient.invalidateQueries({ queryKey: formKeys.all });
      setSaved(savedDraft);
      notify(`${savedForm.display_name} version ${savedForm.version} has been saved.`);
      if (!form) void navigate(`/forms/${savedForm.id}/`, { replace: true });
    },
  });
  const serverFields = isApiError(mutation.error) ? (mutation.error.body.fields ?? {}) : {};

  const update = (change: Partial<FormDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    // Spec section 8: the errors above the form reset when the user edits.
    if (mutation.isError) mutation.reset();
  };

  const formName = formNames.find((candidate) => String(candidate.id) === draft.formNameId);
  const type = formName?.type;
  // Stands until a form name of the example's type is chosen, the one it names or another.
  const suggestionShown = suggestion !== null && !readOnly && type !== suggestion.type;
  // The editors' own messages follow every keystroke; the preview may lag behind.
  const checks = editorChecks(draft, type);
  const preview = useDeferredValue(checks);

  const nameMessages = fieldMessages([], serverFields.name);
  const versionMessages = fieldMessages([], serverFields.version);
  /** An editor's own problem, then what the server said of it on the last save. */
  const editorError = (own: string | null, field: string) =>
    fieldMessages(own ? [own] : [], serverFields[field]).helperText ?? null;
  const errors = {
    jsonSchema: editorError(checks.schemaError, 'jsonSchema'),
    uiSchema: editorError(checks.uiError, 'uiSchema'),
    initialData: editorError(checks.dataError, 'initialData'),
    options: { ...checks.options },
  };
  for (const [field, messages] of Object.entries(serverFields)) {
    if (field === 'options' || field.startsWith('options.'))
      errors.options[field] = [...new Set([...(errors.options[field] ?? []), ...messages])];
  }

  const loadExample = (chosen: FormExample) => {
    const match = formNames.find((candidate) => candidate.name === chosen.name);
    const keep = formName && formName.type === chosen.type;
    const formNameId = match ? String(match.id) : keep ? draft.formNameId : '';
    update({
      formNameId,
      version: draft.version || '1',
      jsonSchema: pretty(chosen.jsonSchema),
      uiSchema: pretty(chosen.uiSchema),
      initialData: '',
      options: chosen.options,
    });
    setSuggestion(match ? null : chosen);
    setTab('jsonSchema');
  };

  const optionsTab = type !== undefined && hasOptions(type);
  const tabs: { value: EditorTab; label: string; error: boolean }[] = [
    { value: 'jsonSchema', label: 'JSON Schema', error: Boolean(errors.jsonSchema) },
    { value: 'uiSchema', label: 'UI Schema', error: Boolean(errors.uiSchema) },
    { value: 'initialData', label: 'Initial data', error: Boolean(errors.initialData) },
    ...(optionsTab
      ? [
          {
            value: 'options' as const,
            label: 'Options',
            error: Object.keys(errors.options).length > 0,
          },
        ]
      : []),
  ];
  const shownTab = tab === 'options' && !optionsTab ? 'jsonSchema' : tab;

  return (
    <>
      <ErrorList
        messages={mutation.isError ? errorMessages(mutation.error, FORM_FIELD_LABELS) : []}
      />
      {readOnly && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() =>
                void navigate('/forms/new', { state: { copy: { ...draft, version: '' } } })
              }
            >
              Create a new version
            </Button>
          }
        >
          A call uses this form, so it cannot be changed: proposals and reviews were written against
          it. To change it, create a new version and use that in new calls.
        </Alert>
      )}

      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: 'flex-start' }}
        >
          <Box sx={{ flex: 2, width: '100%' }}>
            {readOnly ? (
              <TextInput
                name="name"
                label="Form name"
                value={formName ? formNameLabel(formName) : ''}
                readOnly
              />
            ) : (
              <SelectInput
                name="name"
                label="Form name"
                required
                value={draft.formNameId}
                placeholder="Choose a form name"
                options={formNames.map((candidate) => ({
                  value: String(candidate.id),
                  label: formNameLabel(candidate),
                }))}
                onChange={(event) => {
                  const next = formNames.find((c) => String(c.id) === event.target.value);
                  update({
                    formNameId: event.target.value,
                    options: optionsFor(next?.type, draft.options),
                  });
                }}
                error={nameMessages.error}
                helperText={
                  nameMessages.helperText ??
                  (formNames.length === 0
                    ? 'Add a form name on the Form Names tab first, or load an example.'
                    : 'The form name decides the type. Add new ones on the Form Names tab.')
                }
              />
            )}
          </Box>
          <Box sx={{ flex: 1, width: '100%' }}>
            <TextInput
              name="version"
              label="Version"
              required
              value={draft.version}
              onChange={(event) => update({ version: event.target.value })}
              maxLength={MAX_LENGTHS.formVersion}
              readOnly={readOnly}
              error={versionMessages.error}
              helperText={versionMessages.helperText ?? 'For example 1, 2 or 2026-1.'}
            />
          </Box>
          {!readOnly && (
            <Box sx={{ pt: 1 }}>
              <LoadExampleButton
                onLoad={(chosen) => {
                  if (dirty) {
                    setExample(chosen);
                    setConfirmExample(true);
                  } else {
                    loadExample(chosen);
                  }
                }}
              />
            </Box>
          )}
        </Stack>
        {suggestionShown && (
          <Alert
            severity="info"
            sx={{ mt: 2 }}
            onClose={() => setSuggestion(null)}
            action={
              <Button color="inherit" size="small" onClick={() => setCreatingName(true)}>
                Create form name
              </Button>
            }
          >
            {`This example is a ${FORM_TYPE_LABELS[suggestion.type]}. There is no form name “${suggestion.name}” yet: create it, or choose another form name of that type.`}
          </Alert>
        )}
      </Paper>

      <Box
        sx={{
          display: 'grid',
          // minmax(0, …): a long line in an editor must scroll inside it, not widen the page.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' },
          gap: 3,
          alignItems: 'start',
        }}
      >
        <Box component="section" aria-label="Definition">
          <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
            <Tabs
              value={shownTab}
              onChange={(_event, value: EditorTab) => setTab(value)}
              aria-label="Form definition"
              variant="scrollable"
              allowScrollButtonsMobile
            >
              {tabs.map(({ value, label, error }) => (
                <Tab
                  key={value}
                  value={value}
                  id={`editor-tab-${value}`}
                  aria-controls={`editor-panel-${value}`}
                  label={label}
                  icon={error ? <ErrorOutlineIcon color="error" fontSize="small" /> : undefined}
                  iconPosition="end"
                  // The icon alone would not tell a screen reader.
                  aria-label={error ? `${label} (has an error)` : label}
                  sx={{ minHeight: 48 }}
                />
              ))}
            </Tabs>
          </Box>
          {/* Every editor stays mounted, so each keeps its undo history across tabs. */}
          <EditorPanel value="jsonSchema" shown={shownTab}>
            <JsonEditor
              label="JSON Schema"
              value={draft.jsonSchema}
              onChange={(jsonSchema) => update({ jsonSchema })}
              readOnly={readOnly}
              error={errors.jsonSchema}
              hint="The fields of the form, as JSON Schema (draft-07)."
            />
          </EditorPanel>
          <EditorPanel value="uiSchema" shown={shownTab}>
            <JsonEditor
              label="UI Schema"
              value={draft.uiSchema}
              onChange={(uiSchema) => update({ uiSchema })}
              readOnly={readOnly}
              error={errors.uiSchema}
              hint="How the fields are shown: order, widgets, help text (react-jsonschema-form)."
            />
          </EditorPanel>
          <EditorPanel value="initialData" shown={shownTab}>
            <JsonEditor
              label="Initial data"
              value={draft.initialData}
              onChange={(initialData) => update({ initialData })}
              readOnly={readOnly}
              error={errors.initialData}
              hint="Answers the form starts with, as a JSON object. Leave empty for none."
            />
          </EditorPanel>
          {type !== undefined && hasOptions(type) && (
            <EditorPanel value="options" shown={shownTab}>
              <OptionsEditor
                type={type}
                options={draft.options}
                schema={checks.schema.ok ? checks.schema.value : null}
                onChange={(options) => update({ options })}
                readOnly={readOnly}
                errors={errors.options}
              />
            </EditorPanel>
          )}
        </Box>

        <Paper
          component="section"
          aria-labelledby="preview-heading"
          variant="outlined"
          sx={{
            p: 2,
            position: { lg: 'sticky' },
            top: { lg: 80 },
            // rjsf prints a broken schema as one long line; it must not widen the page.
            overflowWrap: 'anywhere',
            '& pre': { whiteSpace: 'pre-wrap' },
          }}
        >
          <Typography id="preview-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
            Preview
          </Typography>
          <PreviewPane checks={preview} />
        </Paper>
      </Box>

      {!readOnly && (
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button
            variant="contained"
            onClick={() => mutation.mutate(draft)}
            loading={mutation.isPending}
          >
            {form ? 'Save' : 'Create form'}
          </Button>
          <Button component={RouterLink} to="/forms">
            {dirty ? 'Cancel' : 'Back to forms'}
          </Button>
        </Stack>
      )}

      <ConfirmDialog
        open={confirmExample}
        title="Replace your changes?"
        confirmLabel="Load example"
        onConfirm={() => {
          setConfirmExample(false);
          if (example) loadExample(example);
        }}
        onCancel={() => setConfirmExample(false)}
      >
        {`The editors' content will be replaced by the example “${example?.title ?? ''}”.`}
      </ConfirmDialog>
      <FormNameDialog
        open={creatingName}
        suggestion={suggestion ?? undefined}
        onClose={() => setCreatingName(false)}
        onSaved={(created) => {
          setCreatingName(false);
          setSuggestion(null);
          queryClient.setQueryData<FormName[]>(formKeys.names, (names) => [
            ...(names ?? []),
            created,
          ]);
          void queryClient.invalidateQueries({ queryKey: formKeys.names });
          update({
            formNameId: String(created.id),
            options: optionsFor(created.type, draft.options),
          });
          notify(`The form name ${created.name} has been added.`);
        }}
      />
    </>
  );
}

function EditorPanel({
  value,
  shown,
  children,
}: {
  value: EditorTab;
  shown: EditorTab;
  children: ReactNode;
}) {
  return (
    <Box
      role="tabpanel"
      id={`editor-panel-${value}`}
      aria-labelledby={`editor-tab-${value}`}
      hidden={value !== shown}
    >
      {children}
    </Box>
  );
}

type Checks = ReturnType<typeof editorChecks>;

/** What each editor's text means, and what is wrong with it. */
function editorChecks(draft: FormDraft, type: FormType | undefined) {
  const schema = parseJson(draft.jsonSchema);
  const ui = parseJson(draft.uiSchema, {});
  const data = parseJson(draft.initialData, null);
  const schemaError = jsonSchemaError(schema);
  let options: FieldErrors = {};
  if (type !== undefined && hasOptions(type)) {
    options = schemaError
      ? checkOptionsShape(type, draft.options)
      : optionErrors(type, draft.options, schema.ok ? schema.value : null);
  }
  return {
    schema,
    ui,
    data,
    schemaError,
    uiError:
      objectError(ui) ??
      (schema.ok && ui.ok && !schemaError ? uiOrderProblem(schema.value, ui.value) : null),
    dataError: objectError(data),
    options,
  };
}

/** The live preview, or why there is none. */
function PreviewPane({ checks }: { checks: Checks }) {
  // Polite, not an alert: the message changes with every keystroke in the editors.
  if (checks.schemaError || !checks.schema.ok) {
    return (
      <Alert severity="error" role="status">
        {previewSchemaError(checks.schemaError ?? '')}
      </Alert>
    );
  }
  if (checks.uiError || !checks.ui.ok) {
    return (
      <Alert severity="error" role="status">
        {previewSchemaError(`in the UI schema: ${checks.uiError ?? ''}`)}
      </Alert>
    );
  }
  if (checks.dataError || !checks.data.ok) {
    return (
      <Alert severity="error" role="status">
        {`The initial data cannot be used: ${checks.dataError ?? ''}`}
      </Alert>
    );
  }
  return (
    <FormPreview
      schema={checks.schema.value as RJSFSchema}
      uiSchema={(checks.ui.value ?? {}) as UiSchema}
      formData={checks.data.value ?? undefined}
    />
  );
}
