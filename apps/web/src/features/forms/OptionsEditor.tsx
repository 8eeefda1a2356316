import {
  isNumericProperty,
  isResourceForm,
  schemaProperties,
  SCORE_METHODS,
  type FieldErrors,
  type FormOptions,
  type FormType,
  type ResourceFormOptions,
  type ScoreFormOptions,
} from '@merit/domain';
import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { SelectInput } from '../../components/form/SelectInput';
import { defaultOptions } from './form-draft';

interface OptionsEditorProps {
  type: FormType;
  options: FormOptions | null;
  /** The parsed JSON schema, or null while it cannot be used. */
  schema: unknown;
  onChange: (options: FormOptions) => void;
  readOnly?: boolean;
  /** The options rule's problems, keyed `options`, `options.fields`, … */
  errors: FieldErrors;
}

interface Field {
  name: string;
  label: string;
}

const METHOD_LABELS: Record<(typeof SCORE_METHODS)[number], string> = {
  average: 'Average of the score fields',
  total: 'Total of the score fields',
};

/** The top-level fields of the schema, labelled by their titles. */
function fieldsOf(schema: unknown, numericOnly: boolean): Field[] {
  return Object.entries(schemaProperties(schema))
    .filter(([, property]) => !numericOnly || isNumericProperty(property))
    .map(([name, property]) => {
      const title = (property as { title?: unknown }).title;
      return { name, label: typeof title === 'string' && title ? `${title} (${name})` : name };
    });
}

/**
 * The options of a Review Score Form (type 3) or a resource form (types 4 and 5) as
 * controls rather than JSON: they can only name fields the schema has, and only numeric
 * ones where the values are added up (spec section 3, Form options).
 */
export function OptionsEditor({
  type,
  options,
  schema,
  onChange,
  readOnly = false,
  errors,
}: OptionsEditorProps) {
  const current = options ?? defaultOptions(type)!;
  const general = errors.options ?? [];
  return (
    <Stack spacing={3}>
      {general.length > 0 && <FormHelperText error>{general.join(' ')}</FormHelperText>}
      {isResourceForm(type) ? (
        <ResourceOptions
          options={current as ResourceFormOptions}
          schema={schema}
          onChange={onChange}
          readOnly={readOnly}
          errors={errors}
        />
      ) : (
        <ScoreOptions
          options={current as ScoreFormOptions}
          schema={schema}
          onChange={onChange}
          readOnly={readOnly}
          errors={errors}
        />
      )}
    </Stack>
  );
}

type Props<O> = Omit<OptionsEditorProps, 'type' | 'options'> & { options: O };

function ScoreOptions({ options, schema, onChange, readOnly, errors }: Props<ScoreFormOptions>) {
  const methodErrors = errors['options.method'] ?? [];
  return (
    <>
      <FormControl error={methodErrors.length > 0} disabled={readOnly}>
        <FormLabel id="score-method-label">Score method</FormLabel>
        <RadioGroup
          row
          aria-labelledby="score-method-label"
          value={options.method}
          onChange={(event) =>
            onChange({ ...options, method: event.target.value as ScoreFormOptions['method'] })
          }
        >
          {SCORE_METHODS.map((method) => (
            <FormControlLabel
              key={method}
              value={method}
              control={<Radio />}
              label={METHOD_LABELS[method]}
            />
          ))}
        </RadioGroup>
        {methodErrors.length > 0 && <FormHelperText>{methodErrors.join(' ')}</FormHelperText>}
      </FormControl>
      <FieldChoice
        label="Score fields"
        hint="The numeric fields whose values make up the review's score."
        fields={fieldsOf(schema, true)}
        chosen={options.fields}
        onChange={(fields) => onChange({ ...options, fields })}
        readOnly={readOnly}
        errors={errors['options.fields'] ?? []}
      />
    </>
  );
}

function ResourceOptions({
  options,
  schema,
  onChange,
  readOnly,
  errors,
}: Props<ResourceFormOptions>) {
  const allFields = fieldsOf(schema, false);
  const facility = options.institution_field;
  const facilityErrors = errors['options.institution_field'] ?? [];
  // A field the schema lost still shows, so the choice can be seen and undone.
  const facilityChoices =
    facility !== null && !allFields.some((field) => field.name === facility)
      ? [...allFields, { name: facility, label: `${facility} (not in the schema)` }]
      : allFields;
  return (
    <>
      <Box sx={{ maxWidth: 480 }}>
        {readOnly ? (
          <Typography>
            <strong>Facility field:</strong> {facility ?? 'None (one unnamed facility)'}
          </Typography>
        ) : (
          <SelectInput
            name="institution_field"
            label="Facility field"
            value={facility ?? ''}
            placeholder="None (one unnamed facility)"
            options={facilityChoices.map((field) => ({ value: field.name, label: field.label }))}
            onChange={(event) =>
              onChange({ ...options, institution_field: event.target.value || null })
            }
            error={facilityErrors.length > 0}
            helperText={
              facilityErrors.length > 0
                ? facilityErrors.join(' ')
                : 'The field whose answer names the facility the resources are requested from.'
            }
          />
        )}
      </Box>
      <FieldChoice
        label="Data fields"
        hint="The numeric fields added up per facility in the call's resource totals."
        fields={fieldsOf(schema, true)}
        chosen={options.data_fields}
        onChange={(data_fields) => onChange({ ...options, data_fields })}
        readOnly={readOnly}
        errors={errors['options.data_fields'] ?? []}
      />
    </>
  );
}

interface FieldChoiceProps {
  label: string;
  hint: string;
  /** The numeric fields of the schema. */
  fields: Field[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  readOnly?: boolean;
  errors: string[];
}

/** A checkbox per numeric field; a chosen field the schema no longer offers stays visible. */
function FieldChoice({
  label,
  hint,
  fields,
  chosen,
  onChange,
  readOnly,
  errors,
}: FieldChoiceProps) {
  const offered = new Set(fields.map((field) => field.name));
  const stale = chosen
    .filter((name) => !offered.has(name))
    .map((name) => ({ name, label: `${name} (not a numeric field of the schema)` }));
  const shown = [...fields, ...stale];
  const toggle = (name: string, on: boolean) =>
    // Kept in the schema's order, so the list reads the same as the form.
    onChange(
      on
        ? shown.map((field) => field.name).filter((n) => n === name || chosen.includes(n))
        : chosen.filter((n) => n !== name),
    );
  return (
    <FormControl component="fieldset" error={errors.length > 0} disabled={readOnly}>
      <FormLabel component="legend">{label}</FormLabel>
      {shown.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          The schema has no numeric fields yet. Add a top-level property with &quot;type&quot;:
          &quot;number&quot; or &quot;integer&quot;.
        </Typography>
      ) : (
        <FormGroup>
          {shown.map((field) => (
            <FormControlLabel
              key={field.name}
              control={
                <Checkbox
                  checked={chosen.includes(field.name)}
                  onChange={(event) => toggle(field.name, event.target.checked)}
                />
              }
              label={field.label}
            />
          ))}
        </FormGroup>
      )}
      <FormHelperText>{errors.length > 0 ? errors.join(' ') : hint}</FormHelperText>
    </FormControl>
  );
}
