import { OUTCOME_LABELS, type Outcome } from '@merit/domain';
import { LETTER_FIELDS } from '@merit/domain/letters';
import { Box, Button, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useLayoutEffect, useRef, useState } from 'react';
import { fieldText, insertAt, type TemplateDraft, type TemplateErrors } from './letters-form';

interface LetterTemplateCardProps {
  outcome: Outcome;
  draft: TemplateDraft;
  onChange: (draft: TemplateDraft) => void;
  /** Fields and tags as the chair types, empty texts once Save was tried, and the server's. */
  errors: TemplateErrors;
}

type TextName = 'subject' | 'body';

/**
 * One outcome's letter: the call's own word for the outcome, the subject and the body,
 * and the fields, each a button that puts it where the cursor was in the subject or body
 * last written in (the body, until one is). A group named after the outcome, so each
 * field's label reads with the card it is in.
 */
export function LetterTemplateCard({ outcome, draft, onChange, errors }: LetterTemplateCardProps) {
  const subjectInput = useRef<HTMLInputElement>(null);
  const bodyInput = useRef<HTMLTextAreaElement>(null);
  const inputOf = (text: TextName) => (text === 'subject' ? subjectInput : bodyInput).current;
  // Where the cursor was: a button takes the focus from the text, which keeps its selection.
  const [target, setTarget] = useState<TextName>('body');
  // After an insertion, the cursor goes after the field, in the text it went into, once
  // the text shows it (a controlled input puts the cursor at the end when its value changes).
  const cursor = useRef<{ name: TextName; at: number } | null>(null);
  useLayoutEffect(() => {
    const pending = cursor.current;
    if (!pending) return;
    cursor.current = null;
    const input = (pending.name === 'subject' ? subjectInput : bodyInput).current;
    input?.focus();
    input?.setSelectionRange(pending.at, pending.at);
  });

  const label = OUTCOME_LABELS[outcome];
  const name = `letters-${outcome}`;
  const helper = (messages: string[] | undefined) =>
    messages?.length ? messages.join(' ') : undefined;

  const insert = (field: string) => {
    const input = inputOf(target);
    const text = draft[target];
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? start;
    const next = insertAt(text, fieldText(field), start, end);
    onChange({ ...draft, [target]: next.text });
    cursor.current = { name: target, at: next.cursor };
  };

  return (
    <Paper variant="outlined" role="group" aria-label={label} sx={{ p: 2, mb: 2 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 500, mb: 2 }}>
        {label}
      </Typography>
      <Stack spacing={2}>
        <TextField
          name={`${name}-label`}
          label="The call’s word for it (optional)"
          value={draft.label}
          placeholder={label}
          onChange={(event) => onChange({ ...draft, label: event.target.value })}
          error={errors.label !== undefined}
          helperText={
            helper(errors.label) ?? `What {{ outcome }} says in these letters; empty: “${label}”.`
          }
          sx={{ maxWidth: 480 }}
        />
        <TextField
          name={`${name}-subject`}
          label="Subject"
          value={draft.subject}
          inputRef={subjectInput}
          onFocus={() => setTarget('subject')}
          onChange={(event) => onChange({ ...draft, subject: event.target.value })}
          error={errors.subject !== undefined}
          helperText={helper(errors.subject)}
        />
        <TextField
          name={`${name}-body`}
          label="Body"
          multiline
          minRows={8}
          value={draft.body}
          inputRef={bodyInput}
          onFocus={() => setTarget('body')}
          onChange={(event) => onChange({ ...draft, body: event.target.value })}
          error={errors.body !== undefined}
          helperText={helper(errors.body)}
        />
        <Box role="group" aria-label={`Fields for the ${label} letter`}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {`Insert a field into the ${target === 'subject' ? 'subject' : 'body'}:`}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {LETTER_FIELDS.map((field) => (
              <Tooltip key={field.name} title={field.help} describeChild>
                <Button
                  size="small"
                  variant="outlined"
                  sx={{ fontFamily: 'monospace', textTransform: 'none' }}
                  aria-label={`Insert ${fieldText(field.name)}`}
                  onClick={() => insert(field.name)}
                >
                  {fieldText(field.name)}
                </Button>
              </Tooltip>
            ))}
          </Stack>
        </Box>
      </Stack>
    </Paper>
  );
}
