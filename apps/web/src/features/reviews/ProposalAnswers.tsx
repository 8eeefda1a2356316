import type { ProposalDetail } from '@merit/contract';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Typography } from '@mui/material';
import { AnswersView } from '../proposals/editor/AnswersView';
import type { Answers, EditorForm } from '../proposals/editor/editor-state';

const isAnswers = (value: unknown): value is Answers =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A form's saved entries: one for a one-entry form, none when nothing was saved. */
function entriesOf(response: unknown): Answers[] {
  return (Array.isArray(response) ? response : [response]).filter(isAnswers);
}

/**
 * The proposal as its author submitted it, for the reviewer to read beside the review:
 * each form of its type in the call's order, folded away until opened, its answers as a
 * page to read, as the proposal editor shows them to anyone who may not change them.
 */
export function ProposalAnswers({
  proposal,
  forms,
}: {
  proposal: ProposalDetail;
  forms: readonly EditorForm[];
}) {
  return forms.map((form) => {
    const entries = entriesOf(proposal.responses[String(form.id)]);
    const id = `proposal-form-${form.id}`;
    return (
      <Accordion
        key={form.id}
        disableGutters
        variant="outlined"
        slotProps={{ region: { 'aria-labelledby': `${id}-summary` } }}
      >
        <AccordionSummary
          id={`${id}-summary`}
          aria-controls={`${id}-details`}
          expandIcon={<ExpandMoreIcon />}
        >
          <Typography component="span" sx={{ fontWeight: 500 }}>
            {form.name}
          </Typography>
        </AccordionSummary>
        <AccordionDetails id={`${id}-details`}>
          {entries.length === 0 ? (
            <Typography color="text.secondary">Nothing was written in this form.</Typography>
          ) : (
            entries.map((answers, index) =>
              form.multi ? (
                // Each entry a section of its own, named by its heading.
                <section key={index} aria-labelledby={`${id}-entry-${index}`}>
                  <Typography
                    id={`${id}-entry-${index}`}
                    variant="subtitle1"
                    component="h4"
                    sx={{ mt: index ? 2 : 0, mb: 1, fontWeight: 600 }}
                  >
                    Entry {index + 1}
                  </Typography>
                  <AnswersView form={form} answers={answers} proposalId={proposal.id} />
                </section>
              ) : (
                <AnswersView key={index} form={form} answers={answers} proposalId={proposal.id} />
              ),
            )
          )}
        </AccordionDetails>
      </Accordion>
    );
  });
}
