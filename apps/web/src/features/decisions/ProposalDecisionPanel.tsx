import type { LetterSummary, ProposalDecision, ProposalDetail } from '@merit/contract';
import { facilityLabel, formatDateTime } from '@merit/domain';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import {
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessages } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import { formatAmount } from '../proposals/chair/chair-columns';
import { DecisionEditor, outcomeText } from './DecisionEditor';
import { downloadLetter } from './decisions.api';

/** What the letter's state says to its readers. */
export function letterStateText(letter: LetterSummary): string {
  switch (letter.state) {
    case 'sent':
      return letter.sentAt ? `Sent on ${formatDateTime(new Date(letter.sentAt))}.` : 'Sent.';
    case 'queued':
      return 'Being sent.';
    case 'failed':
      return 'Not sent: sending it failed.';
    case 'superseded':
      return 'Replaced by a corrected letter.';
  }
}

/**
 * The Decision section of a proposal's page (issue 29): for a chair who may decide on it,
 * the outcome and awards editor of the Ranking page; for anyone else who may read it (its
 * applicants once the decisions are released), the outcome, the awards and the letter.
 * The server decides: without `decision` in the detail nothing is shown.
 */
export function ProposalDecisionPanel({ proposal }: { proposal: ProposalDetail }) {
  const headingId = useId();
  const { decision } = proposal;
  if (decision === undefined) return null;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 2 }}>
        Decision
      </Typography>
      {proposal.abilities.decide ? (
        <DecisionEditor
          proposalId={proposal.id}
          callId={proposal.callId}
          name={proposal.proposalName}
          saved={{
            outcome: decision.outcome,
            awards: decision.awards,
            awardNotes: decision.awardNotes ?? {},
            version: decision.version,
          }}
          requested={decision.requested}
          layout="panel"
        />
      ) : (
        <DecisionView decision={decision} />
      )}
      {decision.letter && <LetterLine letter={decision.letter} name={proposal.proposalName} />}
    </Paper>
  );
}

/** The outcome and the awards, read only. */
function DecisionView({ decision }: { decision: ProposalDecision }) {
  const tableId = useId();
  const rows = Object.entries(decision.awards).flatMap(([facility, fields]) =>
    Object.entries(fields).map(([field, amount]) => ({ facility, field, amount })),
  );
  // Asked for but not awarded: shown as awarded nothing.
  for (const [facility, fields] of Object.entries(decision.requested))
    for (const field of Object.keys(fields))
      if (!rows.some((row) => row.facility === facility && row.field === field))
        rows.push({ facility, field, amount: 0 });
  return (
    <Stack spacing={2}>
      <Typography>
        <strong>Outcome:</strong> {outcomeText(decision.outcome)}
      </Typography>
      {rows.length > 0 && (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 640 }}>
          <Typography id={tableId} variant="subtitle2" component="h3" sx={{ px: 2, pt: 1 }}>
            Awards
          </Typography>
          <Table size="small" aria-labelledby={tableId}>
            <TableHead>
              <TableRow>
                <TableCell>Facility</TableCell>
                <TableCell>Field</TableCell>
                <TableCell align="right">Asked for</TableCell>
                <TableCell align="right">Awarded</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(({ facility, field, amount }) => (
                <TableRow key={`${facility}\u0000${field}`}>
                  <TableCell>{facilityLabel(facility)}</TableCell>
                  <TableCell>{field}</TableCell>
                  <TableCell align="right">
                    {formatAmount(decision.requested[facility]?.[field])}
                  </TableCell>
                  <TableCell align="right">{formatAmount(amount)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
}

/** The decision letter: its state, and its PDF through a download ticket once it is made. */
function LetterLine({ letter, name }: { letter: LetterSummary; name: string }) {
  const notify = useNotify();
  const download = useMutation({
    mutationFn: () => downloadLetter(letter.id),
    onError: (error) => notify(errorMessages(error).join(' '), 'error'),
  });
  return (
    <Stack direction="row" sx={{ mt: 2, gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography>
        <strong>Decision letter:</strong> {letterStateText(letter)}
      </Typography>
      {letter.hasPdf && (
        <Button
          variant="outlined"
          size="small"
          startIcon={<PictureAsPdfIcon />}
          loading={download.isPending}
          aria-label={`Download letter (PDF) of ${name}`}
          onClick={() => download.mutate()}
        >
          Download letter (PDF)
        </Button>
      )}
    </Stack>
  );
}
