import { Box, Paper, Stack, Typography } from '@mui/material';
import { DetailsTable } from '../../../components/DetailsTable';
import { formatCallDate } from '../call-dates';
import { RichTextView } from '../RichTextView';
import { formLabel } from './FormsStep';
import {
  DETAIL_LABELS,
  instantOf,
  type CallDraft,
  type DateField,
  type FormChoice,
} from './call-draft';

interface SummaryStepProps {
  draft: CallDraft;
  committeeName: string;
  forms: readonly FormChoice[];
}

/** Page 2 of the wizard: everything the call will be, before Finish saves it. */
export function SummaryStep({ draft, committeeName, forms }: SummaryStepProps) {
  const byId = new Map(forms.map((form) => [form.id, form]));
  const date = (field: DateField) => {
    const value = instantOf(draft, field);
    return value ? formatCallDate(value.toISOString()) : '';
  };
  return (
    <Stack spacing={3}>
      <Typography variant="h6" component="h2" id="summary-details">
        Details
      </Typography>
      <DetailsTable
        labelledBy="summary-details"
        rows={[
          [DETAIL_LABELS.committee!, committeeName],
          [DETAIL_LABELS.name!, draft.name.trim()],
          [DETAIL_LABELS.openDateTime!, date('openDateTime')],
          [DETAIL_LABELS.closeDateTime!, date('closeDateTime')],
          [DETAIL_LABELS.reviewOpenDateTime!, date('reviewOpenDateTime')],
          [DETAIL_LABELS.reviewCloseDateTime!, date('reviewCloseDateTime')],
          [DETAIL_LABELS.isReviewOpen!, draft.isReviewOpen ? 'Yes' : 'No'],
          [DETAIL_LABELS.conflictsEnabled!, draft.conflictsEnabled ? 'Yes' : 'No'],
          [
            DETAIL_LABELS.declarationRequired!,
            draft.conflictsEnabled && draft.declarationRequired ? 'Yes' : 'No',
          ],
        ]}
      />
      <Typography variant="h6" component="h2">
        Description
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 720 }}>
        {draft.description ? (
          <RichTextView html={draft.description} />
        ) : (
          <Typography color="text.secondary">No description.</Typography>
        )}
      </Paper>
      <Typography variant="h6" component="h2">
        Proposal types
      </Typography>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap' }}
      >
        {draft.proposalTypes.map((type) => (
          <Paper key={type.key} variant="outlined" sx={{ p: 2, minWidth: 280, flex: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {type.typeName.trim()}
            </Typography>
            {(['proposalForms', 'reviewForms'] as const).map((kind) => (
              <Box key={kind} sx={{ mt: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {kind === 'proposalForms' ? 'Proposal forms' : 'Review forms'}
                </Typography>
                <Box component="ol" sx={{ m: 0, pl: 3 }}>
                  {type[kind].map((id) => (
                    <li key={id}>{formLabel(byId.get(id), id)}</li>
                  ))}
                </Box>
              </Box>
            ))}
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
