import type { CallDetail } from '@merit/contract';
import { formsPageComplete, hasErrors } from '@merit/domain';
import { Alert, Box, Button, Paper, Stack, Step, StepLabel, Stepper } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages, isApiError } from '../../../api/client';
import { ErrorList } from '../../../components/ErrorList';
import { fetchDeadlineImpact, refreshCalls, saveCall, useFormCatalogue } from '../calls.api';
import {
  detailsErrors,
  draftOf,
  emptyDraft,
  errorLabels,
  formsOfCall,
  pageOfField,
  toCallSave,
  typesErrors,
  type CallDraft,
  type FormChoice,
} from './call-draft';
import { DeadlineChangeDialog } from './DeadlineChangeDialog';
import type { DeadlineChange } from './deadline-texts';
import { DetailsStep } from './DetailsStep';
import { FormsStep } from './FormsStep';
import { SummaryStep } from './SummaryStep';

const STEPS = ['Call details', 'Forms', 'Summary', 'Done'] as const;
type StepIndex = 0 | 1 | 2 | 3;

/** A contained button's disabled colours, for one that must still answer a click. */
const LOOKS_DISABLED = {
  color: 'action.disabled',
  bgcolor: 'action.disabledBackground',
  boxShadow: 'none',
  '&:hover': { bgcolor: 'action.disabledBackground', boxShadow: 'none' },
};

/**
 * The deadlines an edit moves, each from its saved instant to the one about to be saved:
 * nothing for a new call, or when both stay (to the millisecond: `instantOf`).
 */
function deadlineChange(draft: CallDraft, call: CallDetail | undefined): DeadlineChange {
  if (!call) return {};
  const body = toCallSave(draft, call);
  const move = (from: string, to: string) =>
    Date.parse(from) === Date.parse(to) ? undefined : { from, to };
  const submission = move(call.termination, body.closeDateTime);
  const review = move(call.reviewTermination, body.reviewCloseDateTime);
  return { ...(submission ? { submission } : {}), ...(review ? { review } : {}) };
}

interface CallWizardProps {
  /** The call to edit; a new call without it. */
  call?: CallDetail;
  /** The committees a new call may belong to. */
  committees: readonly { id: number; name: string }[];
}

/**
 * The call wizard of /calls/new and /calls/{callId}/update (spec section 2): details,
 * forms per proposal type, a summary with Finish, then success. Pages move 0 to 1 to 2
 * to 3 (spec section 4, Call wizard); Back keeps what was entered.
 */
export function CallWizard({ call, committees }: CallWizardProps) {
  const [draft, setDraft] = useState<CallDraft>(() =>
    call ? draftOf(call) : emptyDraft(committees.length === 1 ? String(committees[0]!.id) : ''),
  );
  const [step, setStep] = useState<StepIndex>(0);
  const [attempted, setAttempted] = useState({ 0: false, 1: false });
  const catalogue = useFormCatalogue();
  const queryClient = useQueryClient();
  // A save that moves a deadline asks first, saying who it reaches (issue 30).
  const [confirmingDeadlines, setConfirmingDeadlines] = useState(false);
  const deadlines = deadlineChange(draft, call);
  const movesDeadline = Boolean(deadlines.submission ?? deadlines.review);
  const body = call ? toCallSave(draft, call) : null;
  const impact = useQuery({
    queryKey: [
      'calls',
      'deadline-impact',
      call?.id,
      body?.closeDateTime,
      body?.reviewCloseDateTime,
    ] as const,
    queryFn: () =>
      fetchDeadlineImpact(call!.id, {
        termination: body!.closeDateTime,
        reviewTermination: body!.reviewCloseDateTime,
      }),
    enabled: confirmingDeadlines && call !== undefined,
    staleTime: 0,
  });

  const save = useMutation({
    mutationFn: () => saveCall(toCallSave(draft, call ?? null)),
    onSuccess: async () => {
      setConfirmingDeadlines(false);
      await refreshCalls(queryClient);
      goTo(3);
    },
    onError: (error) => {
      setConfirmingDeadlines(false);
      // Back to the page holding what the server refused (spec: the red list, there).
      const fields = isApiError(error) ? Object.keys(error.body.fields ?? {}) : [];
      if (fields.length > 0) goTo(Math.min(...fields.map(pageOfField)) as StepIndex);
    },
  });

  const goTo = (next: StepIndex) => {
    setStep(next);
    window.scrollTo(0, 0);
  };

  const change = (patch: Partial<CallDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // Spec section 8: the error list resets as soon as the user edits.
    if (save.isError) save.reset();
  };

  const forms: FormChoice[] = [
    ...(catalogue.data ?? []).map(({ id, display_name, type, version }) => ({
      id,
      display_name,
      type,
      version,
    })),
    ...formsOfCall(call),
  ];
  const catalogueError = catalogue.isError ? errorMessages(catalogue.error).join(' ') : null;
  const committeeName =
    call?.committeeName ??
    committees.find((committee) => String(committee.id) === draft.committee)?.name ??
    '';

  const formsComplete = formsPageComplete(draft.proposalTypes);
  const pageBlocked =
    step === 0
      ? hasErrors(detailsErrors(draft))
      : step === 1 && (!formsComplete || hasErrors(typesErrors(draft, forms)));

  const next = () => {
    if (step > 1) return;
    if (pageBlocked) return setAttempted((a) => ({ ...a, [step]: true }));
    goTo((step + 1) as StepIndex);
  };

  const serverFields = isApiError(save.error) ? (save.error.body.fields ?? {}) : {};
  const pageProblems = step < 2 && attempted[step as 0 | 1] && pageBlocked;

  return (
    <>
      <Stepper activeStep={step} alternativeLabel sx={{ mb: 4 }}>
        {STEPS.map((label, index) => (
          <Step key={label} completed={step > index || step === 3}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <ErrorList messages={save.isError ? errorMessages(save.error, errorLabels(draft)) : []} />
      {pageProblems && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Some fields need your attention before you go on.
        </Alert>
      )}
      <Box sx={{ mb: 3 }}>
        {step === 0 && (
          <DetailsStep
            draft={draft}
            onChange={change}
            committees={committees}
            fixedCommitteeName={call?.committeeName}
            attempted={attempted[0]}
            serverFields={serverFields}
          />
        )}
        {step === 1 && (
          <FormsStep
            draft={draft}
            onChange={change}
            forms={forms}
            catalogueError={catalogueError}
            attempted={attempted[1]}
            serverFields={serverFields}
          />
        )}
        {step === 2 && <SummaryStep draft={draft} committeeName={committeeName} forms={forms} />}
        {step === 3 && save.data && (
          <Paper variant="outlined" sx={{ p: 3, maxWidth: 720 }}>
            <Alert severity="success" sx={{ mb: 2 }}>
              {call
                ? `The call for proposals “${save.data.name}” has been saved.`
                : `The call for proposals “${save.data.name}” has been created.`}
            </Alert>
            <Button variant="contained" component={RouterLink} to={`/calls/${save.data.id}/`}>
              Continue
            </Button>
          </Paper>
        )}
      </Box>
      {step < 3 && (
        <Stack direction="row" spacing={2}>
          {step > 0 && (
            <Button onClick={() => goTo((step - 1) as StepIndex)} disabled={save.isPending}>
              Back
            </Button>
          )}
          {step < 2 && (
            <Button
              variant="contained"
              onClick={next}
              // Spec: Next is not enabled until every type has its forms. It still answers a
              // click, with the messages saying what is missing, which a disabled button
              // could not; screen readers hear it as unavailable all the same.
              aria-disabled={(step === 1 && !formsComplete) || undefined}
              sx={step === 1 && !formsComplete ? LOOKS_DISABLED : undefined}
            >
              Next
            </Button>
          )}
          {step === 2 && (
            <Button
              variant="contained"
              onClick={() => (movesDeadline ? setConfirmingDeadlines(true) : save.mutate())}
              loading={save.isPending}
            >
              Finish
            </Button>
          )}
          <Button
            component={RouterLink}
            to={call ? `/calls/${call.id}/` : '/calls'}
            color="inherit"
          >
            Cancel
          </Button>
        </Stack>
      )}
      {confirmingDeadlines && (
        <DeadlineChangeDialog
          change={deadlines}
          impact={impact.data}
          error={impact.isError ? errorMessages(impact.error).join(' ') : null}
          onConfirm={() => save.mutate()}
          onCancel={() => setConfirmingDeadlines(false)}
          pending={save.isPending}
        />
      )}
    </>
  );
}
