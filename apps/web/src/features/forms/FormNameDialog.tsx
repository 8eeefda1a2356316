import type { FormName } from '@merit/contract';
import { FORM_TYPE_LABELS, FORM_TYPES, MAX_LENGTHS, validateFormName } from '@merit/domain';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useId } from 'react';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { saveFormName } from './forms.api';

const LABELS = { name: 'Name', display_name: 'Display name', type: 'Type' };

export const FORM_TYPE_OPTIONS = FORM_TYPES.map((type) => ({
  value: String(type),
  label: FORM_TYPE_LABELS[type],
}));

interface FormNameDialogProps {
  open: boolean;
  /** The form name to edit; a new one without it. */
  formName?: FormName;
  /** Prefills a new form name, e.g. from an example form. */
  suggestion?: { name: string; display_name: string; type: number };
  onClose: () => void;
  onSaved: (saved: FormName) => void;
}

/**
 * Adds a form name, or changes the display name of one. Name and type are fixed once
 * created (spec section 5, Forms): forms and calls refer to them.
 */
export function FormNameDialog({ open, ...props }: FormNameDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{props.formName ? 'Edit form name' : 'Add form name'}</DialogTitle>
      {/* Mounted afresh on every opening, so it starts from the saved values. */}
      {open && <FormNameForm {...props} />}
    </Dialog>
  );
}

function FormNameForm({
  formName,
  suggestion,
  onClose,
  onSaved,
}: Omit<FormNameDialogProps, 'open'>) {
  const form = useServerForm({
    initialValues: {
      name: formName?.name ?? suggestion?.name ?? '',
      display_name: formName?.display_name ?? suggestion?.display_name ?? '',
      type: String(formName?.type ?? suggestion?.type ?? ''),
    },
    labels: LABELS,
    validate: (values) =>
      validateFormName(
        { ...values, type: values.type === '' ? null : Number(values.type) },
        formName,
      ),
    submit: (values) =>
      saveFormName(
        formName
          ? { id: formName.id, display_name: values.display_name.trim() }
          : {
              name: values.name.trim(),
              display_name: values.display_name.trim(),
              type: Number(values.type),
            },
      ),
    onSuccess: (saved) => onSaved(saved),
  });

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        <ErrorList messages={form.errors} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          {formName ? (
            <>
              <TextInput
                name="name"
                label="Name"
                value={formName.name}
                readOnly
                helperText="The name cannot change: forms and calls refer to it."
              />
              <TextInput
                name="type"
                label="Type"
                value={FORM_TYPE_LABELS[formName.type]}
                readOnly
                helperText="The type cannot change. Create a new form name for another type."
              />
            </>
          ) : (
            <>
              <TextInput
                {...form.field('name')}
                required
                maxLength={MAX_LENGTHS.formName}
                helperText={
                  form.field('name').helperText ??
                  'A short identifier, e.g. project_description. It cannot change later.'
                }
              />
              <SelectInput
                {...form.field('type')}
                required
                placeholder="Choose a type"
                options={FORM_TYPE_OPTIONS}
                helperText={form.field('type').helperText ?? 'The type cannot change later.'}
              />
            </>
          )}
          <TextInput
            {...form.field('display_name')}
            required
            maxLength={MAX_LENGTHS.formName}
            helperText={form.field('display_name').helperText ?? 'What authors and reviewers see.'}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" loading={form.isPending}>
          {formName ? 'Save' : 'Add form name'}
        </Button>
      </DialogActions>
    </Box>
  );
}
