import { proposalMessages } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  Stack,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { ErrorList } from '../../../components/ErrorList';
import { AnswersForm } from './AnswersForm';
import {
  isEntryDirty,
  type Answers,
  type EditorForm,
  type Entry,
  type FormDraft,
} from './editor-state';
import { ChangeMarks } from './ChangeMarks';

interface FormPanelProps {
  proposalId: number;
  form: EditorForm;
  draft: FormDraft;
  readOnly: boolean;
  onChange: (key: number, answers: Answers) => void;
  onAdd: () => void;
  onDelete: (key: number) => void;
  onSave: () => void;
  /** Save and Save All, under the form. */
  actions: ReactNode;
  /** What a failed save says above the form: the proposal's message unless told (reviews). */
  saveFailedMessage?: string;
}

/**
 * One tab of the editor: the form's answers, or for a multi-entry form its numbered
 * entries, each collapsible, with Add Another and Delete (spec section 2). When its last
 * save failed on its answers, it says so above them (spec section 8) and lists them.
 */
export function FormPanel({
  proposalId,
  form,
  draft,
  readOnly,
  onChange,
  onAdd,
  onDelete,
  onSave,
  actions,
  saveFailedMessage = proposalMessages.saveFailed,
}: FormPanelProps) {
  const { entries } = draft;
  const messages = entries.flatMap((item, index) =>
    (item.errors?.messages ?? []).map((message) =>
      form.multi ? proposalMessages.entryProblem(index, message) : message,
    ),
  );
  const answersOf = (item: Entry) => (
    <AnswersForm
      proposalId={proposalId}
      form={form}
      idPrefix={`form-${form.id}-${item.key}`}
      answers={item.draft}
      errors={item.errors?.schema}
      readOnly={readOnly}
      onChange={(answers) => onChange(item.key, answers)}
      onSave={onSave}
    />
  );

  const entryId = (key: string | number) => `form-${form.id}-entry-${key}`;

  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {form.name}
      </Typography>
      {draft.failed && <ErrorList messages={[saveFailedMessage, ...messages]} />}
      {form.multi ? (
        <Box sx={{ mb: 2 }}>
          {entries.map((item, index) => (
            <Accordion
              key={item.key}
              defaultExpanded
              disableGutters
              variant="outlined"
              // The entry's region is named by its summary ("Entry 2"), for screen readers.
              slotProps={{ region: { 'aria-labelledby': `${entryId(item.key)}-summary` } }}
            >
              <AccordionSummary
                id={`${entryId(item.key)}-summary`}
                aria-controls={`${entryId(item.key)}-details`}
                expandIcon={<ExpandMoreIcon />}
              >
                <Typography component="span" sx={{ fontWeight: 500 }}>
                  Entry {index + 1}
                </Typography>
                <ChangeMarks unsaved={isEntryDirty(item)} errors={item.errors !== null} />
              </AccordionSummary>
              <AccordionDetails id={`${entryId(item.key)}-details`}>
                {answersOf(item)}
                {!readOnly && (
                  <Button
                    color="error"
                    onClick={() => onDelete(item.key)}
                    // Spec section 5: a multi-entry form keeps at least one entry.
                    disabled={entries.length === 1}
                    sx={{ mt: 1 }}
                  >
                    Delete entry {index + 1}
                  </Button>
                )}
              </AccordionDetails>
            </Accordion>
          ))}
          {!readOnly && (
            <Button startIcon={<AddIcon />} onClick={onAdd} sx={{ mt: 2 }}>
              Add Another
            </Button>
          )}
        </Box>
      ) : (
        entries[0] && answersOf(entries[0])
      )}
      {!readOnly && (
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          {actions}
        </Stack>
      )}
    </>
  );
}
