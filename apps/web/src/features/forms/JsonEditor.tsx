import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Box, FormHelperText, Typography } from '@mui/material';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { useId, useMemo } from 'react';

/** Spec section 9: the form builder's JSON editors are 400 px high. */
export const JSON_EDITOR_HEIGHT = '400px';

export interface JsonEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  /** Why the text cannot be used (a syntax error, a schema problem), shown below it. */
  error?: string | null;
  /** A hint shown while there is no error. */
  hint?: string;
}

/**
 * A JSON editor (CodeMirror): syntax highlighting, and syntax errors marked in the lint
 * gutter and underlined where they are.
 */
export function JsonEditor({
  label,
  value,
  onChange,
  readOnly = false,
  error,
  hint,
}: JsonEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const helperId = `${id}-helper`;
  const extensions = useMemo(
    () => [
      json(),
      linter(jsonParseLinter(), { delay: 300 }),
      lintGutter(),
      EditorView.lineWrapping,
      // The editable area is the text box screen readers meet: give it the label.
      EditorView.contentAttributes.of({
        'aria-labelledby': labelId,
        'aria-describedby': helperId,
        // Focusable even when read-only, so keyboard users can scroll through it.
        tabindex: '0',
      }),
    ],
    [labelId, helperId],
  );
  const message = error ?? hint;

  return (
    <Box>
      <Typography
        id={labelId}
        component="label"
        variant="subtitle2"
        sx={{ display: 'block', mb: 0.5 }}
      >
        {label}
      </Typography>
      <Box
        sx={{
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          '&:focus-within': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
          '& .cm-editor': { fontSize: '0.875rem' },
        }}
      >
        <CodeMirror
          value={value}
          onChange={onChange}
          height={JSON_EDITOR_HEIGHT}
          extensions={extensions}
          readOnly={readOnly}
          editable={!readOnly}
          // Tab moves on to the next control, so keyboard users are not trapped in the editor.
          indentWithTab={false}
          basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly }}
        />
      </Box>
      <FormHelperText id={helperId} error={Boolean(error)} sx={{ mx: 0 }}>
        {message ?? ' '}
      </FormHelperText>
    </Box>
  );
}
