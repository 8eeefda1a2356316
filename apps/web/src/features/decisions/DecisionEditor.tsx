import type { ProposalDecision } from '@merit/contract';
import {
  awardsAllowed,
  decisionMessages,
  facilityFieldLabel,
  facilityLabel,
  formatAmount,
  OUTCOME_LABELS,
  OUTCOMES,
  type Outcome,
  type ResourceValues,
} from '@merit/domain';
import { Alert, Box, Button, Stack, TableCell, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { isStale, staleCurrent } from '../drafts/stale';
import { letterKeys } from '../letters/letters.api';
import { LetterDueDialog } from './LetterDueDialog';
import { applySavedDecision, refreshDecisions, saveDecision } from './decisions.api';
import {
  aboveRequest,
  awardFields,
  draftOf,
  draftProblems,
  inputOf,
  sameDecision,
  withOutcome,
  type DecisionDraft,
  type SavedDecision,
} from './decision-form';

/** An outcome as the screens name it; unset reads as such. */
export const outcomeText = (outcome: Outcome | null) =>
  outcome === null ? 'No outcome' : OUTCOME_LABELS[outcome];

/** A decision in a sentence: what another chair saved, shown beside the chair's own. */
export function decisionText(decision: Pick<SavedDecision, 'outcome' | 'awards'>): string {
  const awards = Object.entries(decision.awards).flatMap(([facility, fields]) =>
    Object.entries(fields).map(
      ([field, amount]) => `${facilityFieldLabel(facility, field)} ${formatAmount(amount)}`,
    ),
  );
  return [outcomeText(decision.outcome), ...awards].join('; ');
}

interface DecisionEditorProps {
  proposalId: number;
  callId: number;
  /** The proposal's name: names the fields of a row among many. */
  name: string;
  saved: SavedDecision;
  /** What the proposal asks for: the awards' defaults and limits. */
  requested: ResourceValues;
  /** Two table cells (outcome, awards) of a Ranking row, or a part of the proposal's page. */
  layout: 'cells' | 'panel';
}

/** After a stale save: what another chair saved since, which the next save starts from. */
interface Theirs {
  message: string;
  decision: ProposalDecision;
}

/**
 * A proposal's outcome and awards, for a chair who may decide on it (`decide`): the same
 * editor in a Ranking row and on the proposal's page. A new outcome is saved at once (one
 * that awards starts from what was asked for); changed awards with Save. Each save names
 * the version it started from: when another chair saved first, theirs is shown and the
 * chair's own stays in the fields, to be saved again over theirs or changed. A save after
 * the decisions were released outdates the proposal's letter: the chair is asked at once
 * whether to send the corrected one.
 */
export function DecisionEditor({
  proposalId,
  callId,
  name,
  saved,
  requested,
  layout,
}: DecisionEditorProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // What the fields started from: its version is the one a save is made from.
  const [base, setBase] = useState(saved);
  const [draft, setDraft] = useState(() => draftOf(saved, requested));
  const [theirs, setTheirs] = useState<Theirs | null>(null);
  // After the release: the letter this save owes, a corrected one when one went out before.
  const [letterDue, setLetterDue] = useState<{ corrects: boolean } | null>(null);

  const dirty = !sameDecision(draft, draftOf(base, requested), requested);
  // Saved elsewhere (another chair, another tab) while nothing was changed here: show it.
  // Only a newer one: the page's copy lags behind this editor's own save until it reloads.
  if (!dirty && theirs === null && saved.version > base.version) {
    setBase(saved);
    setDraft(draftOf(saved, requested));
  }

  const save = useMutation({
    mutationFn: ({ next, from }: { next: DecisionDraft; from: number }) =>
      saveDecision(proposalId, { ...inputOf(next, requested), version: from }),
    onSuccess: (answer) => {
      const now: SavedDecision = {
        outcome: answer.outcome,
        awards: answer.awards,
        awardNotes: answer.awardNotes ?? {},
        version: answer.version,
      };
      setBase(now);
      setDraft(draftOf(now, requested));
      setTheirs(null);
      notify(`The decision on ${name} has been saved.`);
      void applySavedDecision(queryClient, callId, proposalId, answer);
      // After the release the Letters page lists the change; a letter is owed unless the
      // outcome was cleared.
      if (answer.letter !== null || answer.letterDue)
        void queryClient.invalidateQueries({ queryKey: letterKeys.ofCall(callId) });
      if (answer.letterDue) setLetterDue({ corrects: answer.letter !== null });
    },
    onError: async (error) => {
      const current = await staleCurrent(error, (c) => c.proposalDecision);
      if (!current) return;
      // The next save starts from theirs; the chair's own values stay in the fields.
      setBase({
        outcome: current.outcome,
        awards: current.awards,
        awardNotes: current.awardNotes ?? {},
        version: current.version,
      });
      setTheirs({ message: decisionMessages.stale(current.decidedBy ?? null), decision: current });
      void refreshDecisions(queryClient, callId, proposalId);
    },
  });

  const problems = draftProblems(draft, requested);
  const server =
    save.isError && isApiError(save.error, 400) ? (save.error.body.fields ?? {}) : undefined;
  const messagesAt = (path: string) => [...(problems.get(path) ?? []), ...(server?.[path] ?? [])];
  const shownPaths = new Set(
    awardFields(requested).flatMap(({ facility, field }) => [
      `awards.${facility}.${field}`,
      `awardNotes.${facility}`,
    ]),
  );
  const otherMessages = save.isError
    ? isStale(save.error)
      ? []
      : server
        ? [
            save.error.message,
            ...Object.entries(server)
              .filter(([path]) => !shownPaths.has(path))
              .flatMap(([, list]) => list),
          ]
        : errorMessages(save.error)
    : [...problems.entries()].filter(([path]) => !shownPaths.has(path)).flatMap(([, l]) => l);

  const submit = (next: DecisionDraft) => {
    save.reset();
    if (draftProblems(next, requested).size === 0) save.mutate({ next, from: base.version });
  };
  const change = (next: DecisionDraft) => {
    setDraft(next);
    if (!isStale(save.error)) save.reset();
  };
  const chooseOutcome = (value: string) => {
    const next = withOutcome(draft, value === '' ? null : (value as Outcome), requested);
    setDraft(next);
    // Said at the meeting, saved at once; after a stale save the chair saves knowingly.
    if (theirs === null) submit(next);
  };

  const outcome = (
    <TextField
      select
      size="small"
      name={`outcome-${proposalId}`}
      label="Outcome"
      value={draft.outcome ?? ''}
      disabled={save.isPending}
      onChange={(event) => chooseOutcome(event.target.value)}
      slotProps={{
        select: { native: true },
        htmlInput: { 'aria-label': `Outcome of ${name}` },
        inputLabel: { shrink: true },
      }}
      sx={{ minWidth: 170 }}
    >
      <option value="">No outcome</option>
      {OUTCOMES.map((value) => (
        <option key={value} value={value}>
          {OUTCOME_LABELS[value]}
        </option>
      ))}
    </TextField>
  );

  const awards = (
    <Stack spacing={1} sx={{ minWidth: 200 }}>
      {theirs && (
        <Alert severity="warning" role="alert">
          {theirs.message} {`Saved now: ${decisionText(theirs.decision)}.`}
        </Alert>
      )}
      <ErrorList messages={otherMessages} />
      {awardsAllowed(draft.outcome) &&
        Object.entries(draft.awards).map(([facility, fields]) => {
          const above = aboveRequest(draft, requested, facility);
          const notePath = `awardNotes.${facility}`;
          return (
            <Box key={facility} role="group" aria-label={`Awards of ${facilityLabel(facility)}`}>
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                {Object.entries(fields).map(([field, text]) => {
                  const path = `awards.${facility}.${field}`;
                  const messages = messagesAt(path);
                  const asked = requested[facility]?.[field];
                  return (
                    <TextField
                      key={field}
                      size="small"
                      type="number"
                      name={`${proposalId}-${path}`}
                      label={facilityFieldLabel(facility, field)}
                      value={text}
                      onChange={(event) =>
                        change({
                          ...draft,
                          awards: {
                            ...draft.awards,
                            [facility]: { ...fields, [field]: event.target.value },
                          },
                        })
                      }
                      error={messages.length > 0}
                      helperText={
                        messages.length > 0
                          ? messages.join(' ')
                          : asked !== undefined
                            ? `Asked for: ${formatAmount(asked)}`
                            : undefined
                      }
                      slotProps={{
                        htmlInput: {
                          min: 0,
                          step: 'any',
                          'aria-label':
                            layout === 'cells'
                              ? `Award of ${facilityFieldLabel(facility, field)} to ${name}`
                              : undefined,
                        },
                      }}
                      sx={{ width: 190 }}
                    />
                  );
                })}
              </Stack>
              {above && (
                <TextField
                  size="small"
                  required
                  multiline
                  name={`${proposalId}-${notePath}`}
                  label={`Why more of ${facilityLabel(facility)}`}
                  value={draft.notes[facility] ?? ''}
                  onChange={(event) =>
                    change({ ...draft, notes: { ...draft.notes, [facility]: event.target.value } })
                  }
                  error={messagesAt(notePath).length > 0 || !draft.notes[facility]?.trim()}
                  helperText={messagesAt(notePath).join(' ') || undefined}
                  sx={{ mt: 1, width: '100%', maxWidth: 400 }}
                />
              )}
            </Box>
          );
        })}
      {awardsAllowed(draft.outcome) && Object.keys(draft.awards).length === 0 && (
        <Typography variant="body2" color="text.secondary">
          It asks for no resources: nothing to award.
        </Typography>
      )}
      {(dirty || theirs !== null) && (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button
            size="small"
            variant="contained"
            loading={save.isPending}
            disabled={problems.size > 0}
            aria-label={layout === 'cells' ? `Save the decision on ${name}` : undefined}
            onClick={() => submit(draft)}
          >
            {theirs ? 'Save mine' : 'Save'}
          </Button>
          {theirs && (
            <Button
              size="small"
              onClick={() => {
                setDraft(draftOf(base, requested));
                setTheirs(null);
                save.reset();
              }}
            >
              Take theirs
            </Button>
          )}
        </Stack>
      )}
      <LetterDueDialog
        open={letterDue !== null}
        callId={callId}
        proposalId={proposalId}
        name={name}
        corrects={letterDue?.corrects ?? true}
        onClose={() => setLetterDue(null)}
      />
    </Stack>
  );

  if (layout === 'cells')
    return (
      <>
        <TableCell>{outcome}</TableCell>
        <TableCell>{awards}</TableCell>
      </>
    );
  return (
    <Stack spacing={2}>
      <Box>{outcome}</Box>
      {awards}
    </Stack>
  );
}
