import { callDateMessages, callMessages, MAX_LENGTHS } from '@merit/domain';
import { Box, Checkbox, FormControlLabel, FormHelperText, Skeleton, Stack } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { DateTimeInput } from '../../../components/form/DateTimeInput';
import { fieldMessages } from '../../../components/form/field-messages';
import { SelectInput } from '../../../components/form/SelectInput';
import { TextInput } from '../../../components/form/TextInput';
import { ConflictSettingsFields } from '../../conflicts/ConflictSettingsFields';
import { detailsErrors, DETAIL_LABELS, type CallDraft, type DateField } from './call-draft';

// TipTap and ProseMirror load only once someone opens the wizard's first page.
const RichTextEditor = lazy(() => import('../RichTextEditor'));

const ORDER_MESSAGES = new Set<string>(Object.values(callDateMessages));

interface DetailsStepProps {
  draft: CallDraft;
  onChange: (patch: Partial<CallDraft>) => void;
  /** The committees a new call may belong to; on edit the committee is fixed. */
  committees: readonly { id: number; name: string }[];
  /** Set when editing: the committee's name, shown read-only. */
  fixedCommitteeName?: string;
  /** The user tried to go on: every rule shows, not only those of fields they left. */
  attempted: boolean;
  /** Fields the server refused on the last Finish. */
  serverFields: Record<string, string[]>;
}

/** Page 0 of the wizard: the call's details (spec section 2, Call create and edit wizard). */
export function DetailsStep({
  draft,
  onChange,
  committees,
  fixedCommitteeName,
  attempted,
  serverFields,
}: DetailsStepProps) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const errors = detailsErrors(draft);
  const editing = fixedCommitteeName !== undefined;

  /**
   * A field's rules once the user has left it (or tried to go on). The date order shows
   * as soon as both dates are there: it is what the user needs while choosing them.
   */
  const problemsOf = (name: string) =>
    (errors[name] ?? []).filter(
      (message) => attempted || touched.has(name) || ORDER_MESSAGES.has(message),
    );
  const touch = (name: string) =>
    setTouched((current) => (current.has(name) ? current : new Set(current).add(name)));

  const textProps = (name: 'name' | 'committee' | DateField) => ({
    name,
    label: DETAIL_LABELS[name]!,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => onChange({ [name]: event.target.value }),
    onBlur: () => touch(name),
    ...fieldMessages(problemsOf(name), serverFields[name]),
    required: true,
  });

  return (
    <Stack spacing={3} sx={{ maxWidth: 760 }}>
      {editing ? (
        <TextInput
          name="committee"
          label="Committee"
          value={fixedCommitteeName}
          readOnly
          helperText={callMessages.committeeFixed}
        />
      ) : (
        <SelectInput
          {...textProps('committee')}
          placeholder="Choose a committee"
          options={committees.map((committee) => ({
            value: String(committee.id),
            label: committee.name,
          }))}
          helperText={
            textProps('committee').helperText ??
            'Calls can be created for the committees you chair.'
          }
        />
      )}
      <TextInput {...textProps('name')} maxLength={MAX_LENGTHS.callName} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <DateTimeInput {...textProps('openDateTime')} />
        <DateTimeInput {...textProps('closeDateTime')} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <DateTimeInput {...textProps('reviewOpenDateTime')} />
        <DateTimeInput {...textProps('reviewCloseDateTime')} />
      </Stack>
      <Box>
        <FormControlLabel
          control={
            <Checkbox
              name="isReviewOpen"
              checked={draft.isReviewOpen}
              disabled={editing}
              onChange={(event) => onChange({ isReviewOpen: event.target.checked })}
            />
          }
          label={DETAIL_LABELS.isReviewOpen}
        />
        <FormHelperText sx={{ mt: -0.5, ml: 4 }}>
          {editing
            ? callMessages.reviewOpenFixed
            : 'Any member of the committee may then review. Otherwise only assigned reviewers may. This cannot be changed later.'}
        </FormHelperText>
      </Box>
      <ConflictSettingsFields
        enabled={draft.conflictsEnabled}
        declarationRequired={draft.declarationRequired}
        onChange={onChange}
      />
      <Suspense
        fallback={
          <Skeleton variant="rounded" height={260} role="status" aria-label="Loading the editor…" />
        }
      >
        <RichTextEditor
          label={DETAIL_LABELS.description!}
          value={draft.description}
          onChange={(description) => onChange({ description })}
          error={serverFields.description?.join(' ')}
        />
      </Suspense>
    </Stack>
  );
}
