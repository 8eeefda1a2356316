import {
  REMINDER_ANCHOR_LABELS,
  REMINDER_ANCHORS,
  REMINDER_AUDIENCE_LABELS,
  REMINDER_AUDIENCES,
  formatDateTime,
  type ReminderAnchor,
  type ReminderAudience,
} from '@merit/domain';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Button,
  FormControlLabel,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import {
  whenText,
  withUnit,
  type OffsetDirection,
  type OffsetUnit,
  type RuleDraft,
  type RuleErrors,
} from './reminder-form';

interface ReminderRuleCardProps {
  draft: RuleDraft;
  /** Its place in the list, from 1: names the card. */
  position: number;
  onChange: (draft: RuleDraft) => void;
  onDelete: () => void;
  /** The form's own checks once Save was tried, and the server's. */
  errors: RuleErrors;
  disabled: boolean;
  /** Whether it differs from what is saved: its next due time is then the saved rule's. */
  changed: boolean;
}

/** What the card says of when the saved rule goes out next. */
function nextDue(draft: RuleDraft, changed: boolean): string {
  if (draft.id === undefined) return 'Next due: once saved.';
  if (draft.nextDueAt === null) return 'Next due: not again.';
  const at = `Next due: ${formatDateTime(new Date(draft.nextDueAt))}`;
  return changed ? `${at}, as saved.` : `${at}.`;
}

/** The options of a native select. */
const options = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
  values.map((value) => (
    <option key={value} value={value}>
      {labels[value]}
    </option>
  ));

const UNIT_LABELS: Record<OffsetUnit, string> = { days: 'days', hours: 'hours' };
const DIRECTION_LABELS: Record<OffsetDirection, string> = { before: 'before', after: 'after' };

/**
 * One reminder rule: to whom, when (a number of days or hours before or after a
 * deadline), on or off, and its subject and body. A group named "Reminder <n>", so each
 * field's label reads with the card it is in.
 */
export function ReminderRuleCard({
  draft,
  position,
  onChange,
  onDelete,
  errors,
  disabled,
  changed,
}: ReminderRuleCardProps) {
  const set = (patch: Partial<RuleDraft>) => onChange({ ...draft, ...patch });
  const name = `rules-${draft.key}`;
  const helper = (messages: string[] | undefined) =>
    messages?.length ? messages.join(' ') : undefined;
  const native = { select: { native: true } } as const;
  const when = whenText(draft);

  return (
    <Paper variant="outlined" role="group" aria-label={`Reminder ${position}`} sx={{ p: 2, mb: 2 }}>
      <Stack
        direction="row"
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
          mb: 2,
        }}
      >
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {`Reminder ${position}${when ? `: ${when}` : ''}`}
        </Typography>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <FormControlLabel
            control={
              <Switch
                checked={draft.enabled}
                disabled={disabled}
                onChange={(event) => set({ enabled: event.target.checked })}
              />
            }
            label="On"
          />
          {!disabled && (
            <Button color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
              Delete
            </Button>
          )}
        </Stack>
      </Stack>
      <Stack spacing={2}>
        <TextField
          select
          name={`${name}-audience`}
          label="Who is reminded"
          value={draft.audience}
          disabled={disabled}
          onChange={(event) => set({ audience: event.target.value as ReminderAudience })}
          slotProps={native}
        >
          {options(REMINDER_AUDIENCES, REMINDER_AUDIENCE_LABELS)}
        </TextField>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          role="group"
          aria-label="When"
          sx={{ gap: 2 }}
        >
          <TextField
            name={`${name}-amount`}
            label={draft.unit === 'days' ? 'Days' : 'Hours'}
            type="number"
            value={draft.amount}
            disabled={disabled}
            onChange={(event) => set({ amount: event.target.value })}
            error={errors.offsetHours !== undefined}
            helperText={helper(errors.offsetHours)}
            slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
            sx={{ width: { sm: 160 } }}
          />
          <TextField
            select
            name={`${name}-unit`}
            label="Unit"
            value={draft.unit}
            disabled={disabled}
            onChange={(event) => onChange(withUnit(draft, event.target.value as OffsetUnit))}
            slotProps={native}
            sx={{ width: { sm: 120 } }}
          >
            {options(['days', 'hours'] as const, UNIT_LABELS)}
          </TextField>
          <TextField
            select
            name={`${name}-direction`}
            label="Before or after"
            value={draft.direction}
            disabled={disabled}
            onChange={(event) => set({ direction: event.target.value as OffsetDirection })}
            slotProps={native}
            sx={{ width: { sm: 150 } }}
          >
            {options(['before', 'after'] as const, DIRECTION_LABELS)}
          </TextField>
          <TextField
            select
            name={`${name}-anchor`}
            label="Deadline"
            value={draft.anchor}
            disabled={disabled}
            onChange={(event) => set({ anchor: event.target.value as ReminderAnchor })}
            slotProps={native}
            sx={{ flex: 1 }}
          >
            {options(REMINDER_ANCHORS, REMINDER_ANCHOR_LABELS)}
          </TextField>
        </Stack>
        <TextField
          name={`${name}-subject`}
          label="Subject"
          value={draft.subject}
          disabled={disabled}
          onChange={(event) => set({ subject: event.target.value })}
          error={errors.subject !== undefined}
          helperText={helper(errors.subject)}
        />
        <TextField
          name={`${name}-body`}
          label="Body"
          multiline
          minRows={4}
          value={draft.body}
          disabled={disabled}
          onChange={(event) => set({ body: event.target.value })}
          error={errors.body !== undefined}
          helperText={helper(errors.body)}
        />
        <Typography variant="body2" color="text.secondary">
          {nextDue(draft, changed)}
        </Typography>
      </Stack>
    </Paper>
  );
}
