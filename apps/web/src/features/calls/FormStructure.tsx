import type { ProposalType } from '@merit/contract';
import { FORM_TYPE_LABELS, isFormType } from '@merit/domain';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useId } from 'react';

type FormRef = ProposalType['proposalFormDetails'][number];

/** The forms of each proposal type in order: what authors fill in, then what reviewers do. */
export function FormStructure({ types }: { types: readonly ProposalType[] }) {
  if (types.length === 0) {
    return <Typography color="text.secondary">This call has no proposal types yet.</Typography>;
  }
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {types.map((type) => (
        <TypeForms key={type.typeId} type={type} />
      ))}
    </Stack>
  );
}

function TypeForms({ type }: { type: ProposalType }) {
  const id = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, flex: '1 1 320px', minWidth: 0 }}
    >
      <Typography variant="subtitle1" component="h3" id={id} sx={{ fontWeight: 600, mb: 1 }}>
        {type.typeName}
      </Typography>
      <FormList title="Proposal forms" forms={type.proposalFormDetails} />
      <FormList title="Review forms" forms={type.reviewFormDetails} />
    </Paper>
  );
}

function FormList({ title, forms }: { title: string; forms: readonly FormRef[] }) {
  const id = useId();
  return (
    <Box sx={{ mb: 1 }}>
      <Typography variant="body2" color="text.secondary" id={id}>
        {title}
      </Typography>
      <Box component="ol" aria-labelledby={id} sx={{ mt: 0.5, mb: 0, pl: 3 }}>
        {forms.map((form) => (
          <li key={form.id}>
            {form.display_name}
            {isFormType(form.type) && (
              <Typography component="span" variant="body2" color="text.secondary">
                {` · ${FORM_TYPE_LABELS[form.type]}`}
              </Typography>
            )}
          </li>
        ))}
      </Box>
    </Box>
  );
}
