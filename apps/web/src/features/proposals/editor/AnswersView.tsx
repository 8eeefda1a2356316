import { fileFields, formatBytes } from '@merit/domain';
import { Box, Stack, Typography } from '@mui/material';
import {
  createSchemaUtils,
  getUiOptions,
  optionsList,
  orderProperties,
  type RJSFSchema,
  type UiSchema,
} from '@rjsf/utils';
import { useMemo, type ReactNode } from 'react';
import { DownloadFileButton } from '../../files/DownloadFileButton';
import { fileNotShownText, useProposalFiles } from '../../files/files.api';
import { formValidator } from '../../forms/json-schema/rjsf-validator';
import type { Answers, EditorForm } from './editor-state';

type Schema = RJSFSchema;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nothing was answered: no value, an empty text, or an empty list. */
const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

interface AnswersViewProps {
  form: EditorForm;
  answers: Answers;
  /** The proposal the form's files belong to; none for the forms of a review. */
  proposalId?: number;
}

/**
 * One form's answers as a page to read (issue 30), where they cannot be changed: each
 * field's title with its answer in a description list, a choice by its label, a file by
 * its name with Download, nested groups and lists under their titles. Answers are text to
 * React, never markup, so whatever an author typed reads as typed and runs nothing.
 */
export function AnswersView({ form, answers, proposalId }: AnswersViewProps) {
  const context = useMemo((): ViewContext => {
    const utils = createSchemaUtils(formValidator, form.schema);
    const files = new Set(fileFields(form.schema as Record<string, unknown>, form.uiSchema));
    return {
      resolve: (schema, data) => utils.retrieveSchema(schema, data),
      file: (name) => files.has(name),
      proposalId,
    };
  }, [form, proposalId]);
  return (
    <FieldList schema={form.schema} uiSchema={form.uiSchema} data={answers} top context={context} />
  );
}

interface ViewContext {
  /** The schema as the answers make it (references, dependencies, conditions resolved). */
  resolve: (schema: Schema, data: unknown) => Schema;
  /** A top-level field that holds an uploaded file's id. */
  file: (name: string) => boolean;
  proposalId: number | undefined;
}

function FieldList({
  schema: raw,
  uiSchema = {},
  data,
  top = false,
  context,
}: {
  schema: Schema;
  uiSchema?: UiSchema;
  data: Record<string, unknown>;
  top?: boolean;
  context: ViewContext;
}) {
  const schema = context.resolve(raw, data);
  const properties = (schema.properties ?? {}) as Record<string, Schema | boolean>;
  // Answers the schema does not name (additional properties) follow, by their keys.
  const names = [
    ...new Set([...Object.keys(properties), ...Object.keys(data).filter((k) => !isEmpty(data[k]))]),
  ];
  let ordered = names;
  try {
    ordered = orderProperties(names, uiSchema['ui:order'] as string[] | undefined);
  } catch {
    // A `ui:order` that does not fit the schema: the form builder warns of it; keep the schema's.
  }
  const shown = ordered.filter(
    (name) => getUiOptions((uiSchema[name] ?? {}) as UiSchema).widget !== 'hidden',
  );
  if (shown.length === 0) return <Typography color="text.secondary">Not answered.</Typography>;
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {shown.map((name) => {
        const property = properties[name];
        const child = typeof property === 'object' ? property : {};
        const childUi = (uiSchema[name] ?? {}) as UiSchema;
        const title = getUiOptions(childUi).title ?? child.title ?? name;
        return (
          <Box key={name} sx={{ mb: 2, '&:last-child': { mb: 0 } }}>
            <Typography component="dt" variant="subtitle2" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            <Box component="dd" sx={{ m: 0, mt: 0.25 }}>
              {top && context.file(name) ? (
                <FileAnswer value={data[name]} proposalId={context.proposalId} />
              ) : (
                <Value schema={child} uiSchema={childUi} value={data[name]} context={context} />
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

function Value({
  schema: raw,
  uiSchema,
  value,
  context,
}: {
  schema: Schema;
  uiSchema: UiSchema;
  value: unknown;
  context: ViewContext;
}): ReactNode {
  if (isEmpty(value)) return <Typography color="text.secondary">Not answered.</Typography>;
  const schema = context.resolve(raw, value);
  if (isObject(value))
    return (
      <Box sx={{ pl: 2, borderLeft: 2, borderColor: 'divider' }}>
        <FieldList schema={schema} uiSchema={uiSchema} data={value} context={context} />
      </Box>
    );
  if (Array.isArray(value)) {
    const items = (isObject(schema.items) ? schema.items : {}) as Schema;
    // A multiple choice (an array of an enum) names its labels on the array itself, as
    // react-jsonschema-form reads them.
    const itemUi = (uiSchema.items ?? uiSchema) as UiSchema;
    return (
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {value.map((item, index) => (
          <Box component="li" key={index} sx={{ mb: isObject(item) ? 1 : 0 }}>
            <Value schema={items} uiSchema={itemUi} value={item} context={context} />
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {plainValue(schema, uiSchema, value)}
    </Typography>
  );
}

/** A single answer as words: a choice by its label, yes or no, a number or the text. */
function plainValue(schema: Schema, uiSchema: UiSchema, value: unknown): string {
  const label = optionsList(schema, uiSchema)?.find((option) => option.value === value)?.label;
  if (label !== undefined) return String(label);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** A file field: the uploaded file's name and size, with Download. */
function FileAnswer({ value, proposalId }: { value: unknown; proposalId: number | undefined }) {
  const fileId = typeof value === 'string' ? value : null;
  if (fileId === null || proposalId === undefined)
    return <Typography color="text.secondary">No file uploaded.</Typography>;
  return <ProposalFile fileId={fileId} proposalId={proposalId} />;
}

function ProposalFile({ fileId, proposalId }: { fileId: string; proposalId: number }) {
  const files = useProposalFiles(proposalId);
  const file = files.data?.find((item) => String(item.id) === fileId);
  if (!file) return <Typography color="text.secondary">{fileNotShownText(files)}</Typography>;
  return (
    <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Typography sx={{ overflowWrap: 'anywhere' }}>
        {file.name}{' '}
        <Typography component="span" color="text.secondary">
          ({formatBytes(file.size)})
        </Typography>
      </Typography>
      <DownloadFileButton file={file} />
    </Stack>
  );
}
