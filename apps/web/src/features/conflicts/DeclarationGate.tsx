import type { ConflictDeclarationAnswer, ConflictDeclarationGate } from '@merit/contract';
import {
  CONFLICT_REASON_MAX,
  conflictScreenMessages,
  type DeclaredConflictType,
} from '@merit/domain';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { BackLink } from '../../components/BackLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DetailsTable } from '../../components/DetailsTable';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { proposalKeys } from '../proposals/proposals.api';
import { reviewKeys } from '../reviews/reviews.api';
import { DECLARED_TYPE_OPTIONS, isDeclaredType } from './conflict-words';
import { answerDeclaration, conflictKeys, useDeclarationGate } from './conflicts.api';

interface DeclarationGateProps {
  proposalId: number;
  /** The call of the address, for the way back to its proposals before the facts load. */
  callId: number;
}

/**
 * The declaration gate (issue 26): what a committee member sees instead of a proposal
 * (its page, its reviews) while the call asks them whether they have a conflict of
 * interest with it (403 `declaration_required`). The proposal's name, type and
 * applicants' institutions, then "No conflict", after which the proposal opens (its
 * queries load again), or "I have a conflict", which asks the kind and a reason, confirms,
 * and ends on a message with the way back to the call's proposals.
 */
export function DeclarationGate({ proposalId, callId }: DeclarationGateProps) {
  const gate = useDeclarationGate(proposalId);
  const [declared, setDeclared] = useState<ConflictDeclarationGate | null>(null);

  if (declared) return <Declared gate={declared} />;
  if (gate.isPending) return <LoadingView label="Loading the proposal…" />;
  if (gate.isError)
    return <LoadFailedView error={gate.error} onRetry={() => void gate.refetch()} />;
  return <Question gate={gate.data} callId={callId} onDeclared={setDeclared} />;
}

function Question({
  gate,
  callId,
  onDeclared,
}: {
  gate: ConflictDeclarationGate;
  callId: number;
  onDeclared: (gate: ConflictDeclarationGate) => void;
}) {
  const headingId = useId();
  const factsId = useId();
  const queryClient = useQueryClient();
  const [declaring, setDeclaring] = useState(false);
  const [type, setType] = useState<DeclaredConflictType | ''>('');
  const [reason, setReason] = useState('');
  const [typeMissing, setTypeMissing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const answer = useMutation({
    mutationFn: (body: ConflictDeclarationAnswer) => answerDeclaration(gate.proposalId, body),
    onSuccess: async (answered, body) => {
      // The lists and pending reviews change either way: a declared conflict takes the
      // proposal off the member's pending reviews.
      const lists = Promise.all([
        queryClient.invalidateQueries({ queryKey: proposalKeys.lists }),
        queryClient.invalidateQueries({ queryKey: reviewKeys.pending }),
        queryClient.invalidateQueries({ queryKey: conflictKeys.gate(gate.proposalId) }),
      ]);
      if (body.conflict) {
        setConfirming(false);
        onDeclared(answered);
        await lists;
        return;
      }
      // "No conflict": the proposal opens, as the page's own queries load again.
      await Promise.all([
        lists,
        queryClient.invalidateQueries({ queryKey: proposalKeys.detail(gate.proposalId) }),
        queryClient.invalidateQueries({
          queryKey: reviewKeys.ofProposal(gate.callId, gate.proposalId),
        }),
      ]);
    },
    onError: () => setConfirming(false),
  });

  const facts: [string, string][] = [
    ['Proposal', gate.proposalName],
    ['Proposal type', gate.proposalTypeName],
    ["Applicants' institutions", gate.institutions.join(', ') || 'None given'],
  ];

  return (
    <>
      <BackLink to={`/calls/${callId}/proposals/`}>Proposals</BackLink>
      <PageHeading>{gate.proposalName}</PageHeading>
      <Paper
        component="section"
        variant="outlined"
        aria-labelledby={headingId}
        sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}
      >
        <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
          {conflictScreenMessages.gateQuestion}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {conflictScreenMessages.gateHelp}
        </Typography>
        <Typography id={factsId} variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          About this proposal
        </Typography>
        <Box sx={{ mb: 3 }}>
          <DetailsTable labelledBy={factsId} rows={facts} />
        </Box>
        <ErrorList messages={answer.isError ? errorMessages(answer.error) : []} />
        {!gate.mayAnswer ? (
          <Alert severity="info">{conflictScreenMessages.gateCannotAnswer}</Alert>
        ) : !declaring ? (
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              loading={answer.isPending}
              onClick={() => answer.mutate({ conflict: false })}
            >
              No conflict
            </Button>
            <Button
              variant="outlined"
              disabled={answer.isPending}
              onClick={() => {
                answer.reset();
                setDeclaring(true);
              }}
            >
              I have a conflict
            </Button>
          </Stack>
        ) : (
          <Box
            component="form"
            noValidate
            aria-label="Declare a conflict"
            onSubmit={(event) => {
              event.preventDefault();
              if (type === '') return setTypeMissing(true);
              answer.reset();
              setConfirming(true);
            }}
          >
            <Stack spacing={2} sx={{ maxWidth: 520 }}>
              <SelectInput
                name="type"
                label="Kind of conflict"
                required
                placeholder="Choose the kind"
                value={type}
                onChange={(event) => {
                  const value = event.target.value;
                  setType(isDeclaredType(value) ? value : '');
                  setTypeMissing(false);
                }}
                options={DECLARED_TYPE_OPTIONS}
                error={typeMissing}
                helperText={typeMissing ? 'Choose the kind of conflict.' : undefined}
              />
              <TextInput
                name="reason"
                label="Reason (optional)"
                value={reason}
                maxLength={CONFLICT_REASON_MAX}
                onChange={(event) => setReason(event.target.value)}
                helperText="The chairs of the committee read it."
              />
              <Stack direction="row" spacing={2}>
                <Button type="submit" variant="contained">
                  Declare Conflict
                </Button>
                <Button onClick={() => setDeclaring(false)}>Back</Button>
              </Stack>
            </Stack>
          </Box>
        )}
      </Paper>
      <ConfirmDialog
        open={confirming}
        title="Declare a conflict of interest?"
        confirmLabel="Declare Conflict"
        pending={answer.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          type !== '' && answer.mutate({ conflict: true, type, reason: reason.trim() })
        }
      >
        {conflictScreenMessages.gateConfirm(gate.proposalName)}
      </ConfirmDialog>
    </>
  );
}

/** "I have a conflict", answered: what it means, and the way back. */
function Declared({ gate }: { gate: ConflictDeclarationGate }) {
  return (
    <>
      <BackLink to={`/calls/${gate.callId}/proposals/`}>Proposals</BackLink>
      <PageHeading>{gate.proposalName}</PageHeading>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}>
        <Alert severity="success" sx={{ mb: 2 }}>
          {conflictScreenMessages.gateDeclared(gate.proposalName)}
        </Alert>
        <Button variant="contained" component={RouterLink} to={`/calls/${gate.callId}/proposals/`}>
          Back to the Proposals
        </Button>
      </Paper>
    </>
  );
}
