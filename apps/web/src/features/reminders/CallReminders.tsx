import type { ReminderRules } from '@merit/contract';
import {
  defaultReminderRules,
  MAX_REMINDER_RULES,
  REMINDER_FIELD_HELP,
  REMINDER_FIELDS,
  reminderMessages,
} from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { useConfirm } from '../../components/use-confirm';
import { useCall } from '../calls/calls.api';
import { StaleReloadAlert } from '../drafts/StaleReloadAlert';
import { isStale, saveErrorMessages, staleCurrent } from '../drafts/stale';
import { useLeavePrompt } from '../proposals/editor/use-leave-prompt';
import {
  draftErrors,
  draftOf,
  inputOf,
  newDraft,
  savedForm,
  serverErrors,
  type RuleDraft,
  type RuleErrors,
} from './reminder-form';
import { ReminderRuleCard } from './ReminderRuleCard';
import {
  reminderKeys,
  reminderRulesQuery,
  saveReminderRules,
  useReminderRules,
} from './reminders.api';

/**
 * The call's Reminders page (/calls/{callId}/reminders, issue 28): its reminder rules,
 * edited as a list and saved together. Chairs and admins read it; it changes only while
 * the call is open (`remind`).
 */
export function CallReminders({ callId }: { callId: number }) {
  const call = useCall(callId);
  const allowed = call.data?.abilities.followReview === true;
  const rules = useReminderRules(callId, allowed);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(rules.error, 403)) return <AccessDeniedView />;

  return (
    <>
      <PageHeading
        actions={
          <Link component={RouterLink} to={`/calls/${callId}/progress`}>
            Review Progress
          </Link>
        }
      >
        Reminders
      </PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        <Link component={RouterLink} to={`/calls/${callId}/`}>
          {call.data.name}
        </Link>
      </Typography>
      {rules.isPending ? (
        <LoadingView label="Loading the reminders…" />
      ) : rules.isError ? (
        <LoadFailedView error={rules.error} onRetry={() => void rules.refetch()} />
      ) : (
        <RemindersForm callId={callId} saved={rules.data} canEdit={call.data.abilities.remind} />
      )}
    </>
  );
}

interface RemindersFormProps {
  callId: number;
  /** The rules as the server last sent them. */
  saved: ReminderRules;
  canEdit: boolean;
}

function RemindersForm({ callId, saved, canEdit }: RemindersFormProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // What the form started from: its version is the one a save is made from.
  const [base, setBase] = useState(saved);
  const [drafts, setDrafts] = useState(() => saved.rules.map(draftOf));
  const [checked, setChecked] = useState(false);
  const removal = useConfirm<RuleDraft>();
  const restore = useConfirm<true>();

  const dirty = savedForm(drafts) !== savedForm(base.rules.map(draftOf));
  // Saved elsewhere (another tab, a colleague) while nothing was changed here: show it.
  if (!dirty && saved.version !== base.version) {
    setBase(saved);
    setDrafts(saved.rules.map(draftOf));
  }
  const leave = useLeavePrompt(dirty && canEdit);

  const start = (rules: ReminderRules) => {
    setBase(rules);
    setDrafts(rules.rules.map(draftOf));
    setChecked(false);
    queryClient.setQueryData(reminderKeys.ofCall(callId), rules);
  };

  const save = useMutation({
    mutationFn: () =>
      saveReminderRules(callId, { version: base.version, rules: drafts.map(inputOf) }),
    onSuccess: (answer) => {
      start(answer);
      notify('The reminders have been saved.');
    },
  });
  const reload = useMutation({
    mutationFn: async () =>
      (await staleCurrent(save.error, (c) => c.reminderRules)) ??
      // A 409 without the rules saved now: ask for them.
      (await queryClient.fetchQuery({ ...reminderRulesQuery(callId), staleTime: 0 })),
    onSuccess: (rules) => {
      save.reset();
      start(rules);
    },
  });

  const ownErrors = drafts.map(draftErrors);
  const valid = ownErrors.every((errors) => Object.keys(errors).length === 0);
  const server =
    save.isError && isApiError(save.error, 400) ? serverErrors(save.error.body.fields) : null;
  const errorsOf = (index: number): RuleErrors => {
    const mine = checked ? ownErrors[index]! : {};
    const theirs = server?.byRule.get(index) ?? {};
    return { ...theirs, ...mine };
  };

  const change = (index: number, next: RuleDraft) =>
    setDrafts((list) => list.map((draft, i) => (i === index ? next : draft)));
  const submit = () => {
    setChecked(true);
    save.reset();
    if (valid) save.mutate();
  };

  const topErrors = saveErrorMessages(
    save.isError ? save.error : null,
    server ? server.rest : null,
    checked && !valid ? 'Some reminders need changes: see the fields marked below.' : null,
  );

  return (
    <>
      {!canEdit && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {reminderMessages.callClosed} Its reminders can be read but not changed.
        </Alert>
      )}
      <FieldHelp />
      <StaleReloadAlert error={save.error} message={reminderMessages.stale} reload={reload} />
      <ErrorList
        messages={[...topErrors, ...(reload.isError ? errorMessages(reload.error) : [])]}
      />
      {drafts.length === 0 && (
        <Typography sx={{ mb: 2 }}>
          This call has no reminders: nobody is reminded of its deadlines.
        </Typography>
      )}
      {drafts.map((draft, index) => (
        <ReminderRuleCard
          key={draft.key}
          draft={draft}
          position={index + 1}
          onChange={(next) => change(index, next)}
          onDelete={() => removal.ask(draft)}
          errors={errorsOf(index)}
          disabled={!canEdit}
          changed={
            savedForm([draft]) !==
            savedForm(base.rules.filter((rule) => rule.id === draft.id).map(draftOf))
          }
        />
      ))}
      {canEdit && (
        <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center', mt: 1 }}>
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            disabled={drafts.length >= MAX_REMINDER_RULES}
            onClick={() => setDrafts((list) => [...list, newDraft()])}
          >
            Add reminder
          </Button>
          <Button variant="outlined" onClick={() => restore.ask(true)}>
            Restore defaults
          </Button>
          <Button
            variant="contained"
            loading={save.isPending}
            disabled={isStale(save.error)}
            onClick={submit}
          >
            Save reminders
          </Button>
          {drafts.length >= MAX_REMINDER_RULES && (
            <Typography variant="body2" color="text.secondary">
              {reminderMessages.tooManyRules}
            </Typography>
          )}
          {dirty && (
            <Typography variant="body2" color="text.secondary">
              Your changes to the reminders are not saved yet.
            </Typography>
          )}
        </Stack>
      )}
      <ConfirmDialog
        open={removal.open}
        title="Delete this reminder?"
        confirmLabel="Delete"
        onCancel={removal.close}
        onConfirm={() => {
          const gone = removal.subject;
          setDrafts((list) => list.filter((draft) => draft !== gone));
          removal.close();
        }}
      >
        {`“${removal.subject?.subject || 'This reminder'}” is taken off the list. It is deleted when you save the reminders.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={restore.open}
        title="Restore the default reminders?"
        confirmLabel="Restore defaults"
        onCancel={restore.close}
        onConfirm={() => {
          setDrafts(defaultReminderRules().map(draftOf));
          setChecked(false);
          restore.close();
        }}
      >
        The list is replaced by Merit’s default reminders: drafts 7 days and 1 day before submission
        closes, reviews 7 and 2 days before review closes and 1 day after. Nothing changes until you
        save the reminders.
      </ConfirmDialog>
      <ConfirmDialog
        open={leave.blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        onConfirm={() => leave.blocker.proceed?.()}
        onCancel={() => leave.blocker.reset?.()}
      >
        Your changes to the reminders are not saved. If you leave now, they are lost.
      </ConfirmDialog>
    </>
  );
}

/** The named fields a subject and body may use. */
function FieldHelp() {
  return (
    <Paper
      variant="outlined"
      component="aside"
      aria-labelledby="reminder-fields"
      sx={{ p: 2, mb: 3 }}
    >
      <Typography id="reminder-fields" variant="subtitle2" component="h2" gutterBottom>
        Fields you can use in a subject or body
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {REMINDER_FIELDS.map((field) => (
          <Box key={field} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ fontFamily: 'monospace' }}>{`{{ ${field} }}`}</Box>
            <Box component="dd" sx={{ m: 0 }}>
              {REMINDER_FIELD_HELP[field]}
            </Box>
          </Box>
        ))}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Each person gets one mail per reminder and time, listing everything they have due.
      </Typography>
    </Paper>
  );
}
