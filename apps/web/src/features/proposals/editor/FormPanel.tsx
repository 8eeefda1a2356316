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
import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorList } from '../../../components/ErrorList';
import { AnswersForm } from './AnswersForm';
import { AnswersView } from './AnswersView';
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
  /**
   * Nobody may change the answers here now (submitted, past its deadline, another's
   * review): they read as a page (`AnswersView`), not as disabled fields. A form that is
   * read-only for a moment (someone else holds the lock) keeps its fields.
   */
  readable?: boolean;
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
  readable = false,
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
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAfter = useEntryFocus(entries, {
    // A new entry: its first field, to answer at once; else its heading.
    added: (key) =>
      focusFirst([
        ...(document
          .getElementById(`${entryId(key)}-details`)
          ?.querySelector('form')
          ?.querySelectorAll<HTMLElement>(FIELD_SELECTOR) ?? []),
        document.getElementById(`${entryId(key)}-summary`),
      ]),
    // Where the deleted entry was: the entry before it (or after it, if it was the first).
    deleted: (key) =>
      (key === null
        ? addButton.current
        : document.getElementById(`${entryId(key)}-summary`)
      )?.focus(),
  });

  if (readable) {
    const saved = entries.filter((item) => item.stored);
    return (
      <>
        <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
          {form.name}
        </Typography>
        {saved.length === 0 ? (
          <Typography color="text.secondary">Nothing was written in this form.</Typography>
        ) : form.multi ? (
          saved.map((item, index) => (
            <Box
              component="section"
              key={item.key}
              aria-labelledby={`${entryId(item.key)}-heading`}
              sx={{ mb: 3 }}
            >
              <Typography
                id={`${entryId(item.key)}-heading`}
                variant="h6"
                component="h3"
                sx={{ mb: 1 }}
              >
                Entry {index + 1}
              </Typography>
              <AnswersView form={form} answers={item.draft} proposalId={proposalId} />
            </Box>
          ))
        ) : (
          <AnswersView form={form} answers={saved[0]!.draft} proposalId={proposalId} />
        )}
      </>
    );
  }

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
                    onClick={() => {
                      focusAfter.deleting(item.key);
                      onDelete(item.key);
                    }}
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
            <Button
              ref={addButton}
              startIcon={<AddIcon />}
              onClick={() => {
                focusAfter.adding();
                onAdd();
              }}
              sx={{ mt: 2 }}
            >
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

/** What a person answers with in a rendered form: its fields, and buttons such as Upload PDF. */
const FIELD_SELECTOR =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled]), [contenteditable="true"]';

/**
 * Focuses the first of `candidates` that takes the focus: a file field's own input is
 * hidden behind its button, and hidden elements ignore `focus()`.
 */
function focusFirst(candidates: readonly (HTMLElement | null)[]) {
  for (const candidate of candidates) {
    candidate?.focus();
    if (candidate && document.activeElement === candidate) return;
  }
}

/**
 * Where the focus goes when entries come and go by the person's hand (WCAG 2.4.3): Add
 * Another leaves it on the button and a deleted entry's Delete takes it to the page's body,
 * so after an add it moves into the new entry, and after a delete to the entry before
 * (`key`, null when none is left but Add Another). Entries that come and go otherwise (a
 * reload, someone else's delete) leave the focus where the person has it.
 */
function useEntryFocus(
  entries: readonly Entry[],
  focus: { added: (key: number) => void; deleted: (key: number | null) => void },
) {
  const pending = useRef<
    | { kind: 'add'; known: ReadonlySet<number> }
    | { kind: 'delete'; key: number; index: number }
    | null
  >(null);
  const latest = useRef(focus);
  useEffect(() => {
    latest.current = focus;
  });
  useEffect(() => {
    const wanted = pending.current;
    if (wanted === null) return;
    if (wanted.kind === 'add') {
      const added = entries.find((item) => !wanted.known.has(item.key));
      if (!added) return;
      pending.current = null;
      latest.current.added(added.key);
      return;
    }
    // Asked, not deleted (yet, or cancelled): nothing to do.
    if (entries.some((item) => item.key === wanted.key)) return;
    pending.current = null;
    if (!focusLost()) return;
    const before = entries[Math.max(0, wanted.index - 1)];
    latest.current.deleted(before?.key ?? null);
  }, [entries]);
  return {
    adding: () => {
      pending.current = { kind: 'add', known: new Set(entries.map((item) => item.key)) };
    },
    deleting: (key: number) => {
      pending.current = {
        kind: 'delete',
        key,
        index: entries.findIndex((item) => item.key === key),
      };
    },
  };
}

/**
 * The focus is nowhere the person put it: on the page's body, on an element no longer in
 * the page, or still in the closing confirmation dialog.
 */
function focusLost(): boolean {
  const active = document.activeElement;
  return (
    active === null ||
    active === document.body ||
    !active.isConnected ||
    active.closest('[role="dialog"]') !== null
  );
}
