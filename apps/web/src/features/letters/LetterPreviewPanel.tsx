import type { CallLetters } from '@merit/contract';
import { OUTCOME_LABELS } from '@merit/domain';
import { Alert, Box, Paper, Stack, TextField, Typography } from '@mui/material';
import { errorMessages } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadingView } from '../../components/LoadingView';
import { useLetterPreview } from './letters.api';
import { lettersTexts } from './letters-texts';

interface LetterPreviewPanelProps {
  letters: CallLetters;
  /** The proposal chosen, kept by the page so it stays when another tab is looked at. */
  proposalId: number | null;
  onChoose: (proposalId: number | null) => void;
  /** The templates have changes not saved: the preview does not show them. */
  unsaved: boolean;
}

/**
 * The Preview tab: one proposal's letter as it will be sent, from the saved templates:
 * to whom, the subject, and the letter's HTML in a sandboxed frame (`sandbox=""`), so
 * nothing in it can run, reach the page or follow a link by itself.
 */
export function LetterPreviewPanel({
  letters,
  proposalId,
  onChoose,
  unsaved,
}: LetterPreviewPanelProps) {
  // Only a proposal with an outcome gets a letter.
  const decided = letters.proposals.filter((proposal) => proposal.outcome !== null);
  const preview = useLetterPreview(proposalId);

  if (letters.proposals.length === 0) return <EmptyState>{lettersTexts.noProposals}</EmptyState>;
  if (decided.length === 0) return <EmptyState>{lettersTexts.noOutcomeYet}</EmptyState>;

  return (
    <>
      {unsaved && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {lettersTexts.previewUsesSaved}
        </Alert>
      )}
      <TextField
        select
        name="preview-proposal"
        label="Proposal"
        value={proposalId ?? ''}
        onChange={(event) => onChoose(event.target.value ? Number(event.target.value) : null)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ mb: 3, minWidth: { sm: 420 } }}
      >
        <option value="">Choose a proposal</option>
        {decided.map((proposal) => (
          <option key={proposal.proposalId} value={proposal.proposalId}>
            {`${proposal.name} (${OUTCOME_LABELS[proposal.outcome!]})`}
          </option>
        ))}
      </TextField>
      {proposalId === null ? (
        <Typography color="text.secondary">{lettersTexts.chooseProposal}</Typography>
      ) : preview.isPending ? (
        <LoadingView label="Writing the letter…" />
      ) : preview.isError ? (
        // A proposal with no template for its outcome, say: the server's words.
        <ErrorList messages={errorMessages(preview.error)} />
      ) : (
        <Paper
          variant="outlined"
          component="section"
          aria-label="The letter"
          sx={{ p: 2, maxWidth: 800 }}
        >
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto 1fr',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
              mb: 2,
            }}
          >
            <Box component="dt" sx={{ fontWeight: 500 }}>
              To
            </Box>
            <Box component="dd" sx={{ m: 0 }}>
              {preview.data.to.join(', ')}
            </Box>
            <Box component="dt" sx={{ fontWeight: 500 }}>
              Subject
            </Box>
            <Box component="dd" sx={{ m: 0 }}>
              {preview.data.subject}
            </Box>
          </Box>
          <Stack>
            {/* An empty sandbox: no script, no form, no navigation, no access to the page. */}
            <Box
              component="iframe"
              title={`Letter: ${preview.data.subject}`}
              sandbox=""
              srcDoc={preview.data.html}
              sx={{
                width: '100%',
                minHeight: 480,
                border: 1,
                borderColor: 'divider',
                bgcolor: '#fff',
              }}
            />
          </Stack>
        </Paper>
      )}
    </>
  );
}
