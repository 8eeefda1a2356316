import type { CallDetail, CallLetters as CallLettersBody, LetterTemplates } from '@merit/contract';
import { OUTCOMES, type Outcome } from '@merit/domain';
import { letterMessages, MAX_SIGNATURE } from '@merit/domain/letters';
import { Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
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
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useCall } from '../calls/calls.api';
import { StaleReloadAlert } from '../drafts/StaleReloadAlert';
import { isStale, saveErrorMessages, staleCurrent } from '../drafts/stale';
import { useLeavePrompt } from '../proposals/editor/use-leave-prompt';
import { LetterPreviewPanel } from './LetterPreviewPanel';
import {
  draftErrors,
  draftOf,
  inputOf,
  mergeErrors,
  noErrors,
  savedForm,
  serverErrors,
  type TemplateDraft,
} from './letters-form';
import { lettersTexts } from './letters-texts';
import {
  letterKeys,
  letterTemplatesQuery,
  saveLetterTemplates,
  useCallLetters,
  useLetterTemplates,
} from './letters.api';
import { LettersRelease } from './LettersRelease';
import { LetterTemplateCard } from './LetterTemplateCard';

const TABS = [
  { value: 'templates', label: 'Templates' },
  { value: 'preview', label: 'Preview' },
  { value: 'release', label: 'Release' },
] as const;

/**
 * The call's Letters page (/calls/{callId}/letters, issue 29; chairs): the letter
 * templates per outcome, a preview of any proposal's letter, and the release of the
 * decisions with each proposal's letter. The templates' edits live here, above the tabs,
 * so looking at the preview or the release does not lose them.
 */
export function CallLetters({ callId }: { callId: number }) {
  const call = useCall(callId);
  const allowed = call.data?.abilities.decide === true;
  const templates = useLetterTemplates(callId, allowed);
  const letters = useCallLetters(callId, allowed);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(templates.error, 403) || isApiError(letters.error, 403))
    return <AccessDeniedView />;

  return (
    <>
      <PageHeading
        actions={
          <Link component={RouterLink} to={`/calls/${callId}/ranking`}>
            Ranking
          </Link>
        }
      >
        {lettersTexts.title}
      </PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        <Link component={RouterLink} to={`/calls/${callId}/`}>
          {call.data.name}
        </Link>
      </Typography>
      {templates.isPending || letters.isPending ? (
        <LoadingView label="Loading the letters…" />
      ) : templates.isError ? (
        <LoadFailedView error={templates.error} onRetry={() => void templates.refetch()} />
      ) : letters.isError ? (
        <LoadFailedView error={letters.error} onRetry={() => void letters.refetch()} />
      ) : (
        <LettersTabs call={call.data} saved={templates.data} letters={letters.data} />
      )}
    </>
  );
}

interface LettersTabsProps {
  call: CallDetail;
  /** The templates as the server last sent them. */
  saved: LetterTemplates;
  letters: CallLettersBody;
}

function LettersTabs({ call, saved, letters }: LettersTabsProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // What the form started from: its version is the one a save is made from.
  const [base, setBase] = useState(saved);
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [checked, setChecked] = useState(false);
  const [previewed, setPreviewed] = useState<number | null>(null);

  const dirty = savedForm(draft) !== savedForm(draftOf(base));
  // Saved elsewhere (another tab, a colleague) while nothing was changed here: show it.
  if (!dirty && saved.version !== base.version) {
    setBase(saved);
    setDraft(draftOf(saved));
  }
  const leave = useLeavePrompt(dirty);

  const start = (templates: LetterTemplates) => {
    setBase(templates);
    setDraft(draftOf(templates));
    setChecked(false);
    queryClient.setQueryData(letterKeys.templates(call.id), templates);
  };

  const save = useMutation({
    mutationFn: () => saveLetterTemplates(call.id, inputOf(draft, base.version)),
    onSuccess: (answer) => {
      start(answer);
      // Letters written from now on read the new text.
      void queryClient.invalidateQueries({ queryKey: letterKeys.all });
      notify(lettersTexts.saved);
    },
  });
  const reload = useMutation({
    mutationFn: async () =>
      (await staleCurrent(save.error, (c) => c.letterTemplates)) ??
      // A 409 without the templates saved now: ask for them.
      (await queryClient.fetchQuery({ ...letterTemplatesQuery(call.id), staleTime: 0 })),
    onSuccess: (templates) => {
      save.reset();
      start(templates);
    },
  });

  const own = draftErrors(draft, checked);
  const valid = noErrors(draftErrors(draft, true));
  const server =
    save.isError && isApiError(save.error, 400) ? serverErrors(save.error.body.fields) : null;
  const errors = server ? mergeErrors(server.errors, own) : own;

  const change = (outcome: Outcome, next: TemplateDraft) =>
    setDraft((current) => ({ ...current, templates: { ...current.templates, [outcome]: next } }));
  const submit = () => {
    setChecked(true);
    save.reset();
    if (valid) save.mutate();
  };

  const topErrors = saveErrorMessages(
    save.isError ? save.error : null,
    server ? server.rest : null,
    checked && !valid ? lettersTexts.needChanges : null,
  );

  return (
    <>
      <SearchParamTabs label="Letters" tabs={TABS}>
        {(tab) =>
          tab === 'preview' ? (
            <LetterPreviewPanel
              letters={letters}
              proposalId={previewed}
              onChoose={setPreviewed}
              unsaved={dirty}
            />
          ) : tab === 'release' ? (
            <LettersRelease call={call} letters={letters} />
          ) : (
            <>
              <StaleReloadAlert error={save.error} message={letterMessages.stale} reload={reload} />
              <ErrorList
                messages={[...topErrors, ...(reload.isError ? errorMessages(reload.error) : [])]}
              />
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {lettersTexts.fieldsHelp}
              </Typography>
              {OUTCOMES.map((outcome) => (
                <LetterTemplateCard
                  key={outcome}
                  outcome={outcome}
                  draft={draft.templates[outcome]}
                  onChange={(next) => change(outcome, next)}
                  errors={errors.templates[outcome] ?? {}}
                />
              ))}
              <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
                <TextField
                  name="letters-signature"
                  label="Signature"
                  fullWidth
                  multiline
                  minRows={3}
                  value={draft.signature}
                  onChange={(event) => setDraft({ ...draft, signature: event.target.value })}
                  error={errors.signature !== undefined}
                  helperText={
                    errors.signature?.join(' ') ??
                    `What {{ signature }} says in every letter of the call, at most ${MAX_SIGNATURE.toLocaleString('en')} characters.`
                  }
                />
              </Paper>
              <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
                <Button
                  variant="contained"
                  loading={save.isPending}
                  disabled={isStale(save.error)}
                  onClick={submit}
                >
                  Save templates
                </Button>
                {dirty && (
                  <Typography variant="body2" color="text.secondary">
                    {lettersTexts.unsaved}
                  </Typography>
                )}
              </Stack>
            </>
          )
        }
      </SearchParamTabs>
      <ConfirmDialog
        open={leave.blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        onConfirm={() => leave.blocker.proceed?.()}
        onCancel={() => leave.blocker.reset?.()}
      >
        {lettersTexts.leaveText}
      </ConfirmDialog>
    </>
  );
}
