// The MUI theme's own textarea, which the package's index exports only inside its theme.
import TextareaWidget from '@rjsf/mui/lib/TextareaWidget/TextareaWidget.js';
import type { WidgetProps } from '@rjsf/utils';
import type { ChangeEvent } from 'react';
import { countWords, maxWordsOption, truncateWords } from './word-limit';

/**
 * The textarea of every form rendered from a definition (`"ui:widget": "textarea"`). With `ui:options.maxWords`
 * it keeps the text to that many words, and shows how many it holds: `12 / 300 words`
 * (spec section 5). Without it, or read-only (where the count would only be greyed-out
 * noise), it is the MUI theme's textarea.
 */
export function WordLimitedTextarea(props: WidgetProps) {
  const max = maxWordsOption(props.options);
  if (max === null || props.readonly || props.disabled) return <TextareaWidget {...props} />;

  const { value, onChange, options } = props;
  const text = typeof value === 'string' ? value : '';
  return (
    <TextareaWidget
      {...props}
      // The theme's text field takes these two from a widget's props.
      onChangeOverride={(event: ChangeEvent<HTMLInputElement>) => {
        const next = truncateWords(event.target.value, max);
        onChange(next === '' ? options.emptyValue : next);
      }}
      // Its own helper text, which describes the input to screen readers.
      helperText={`${countWords(text)} / ${max} words`}
    />
  );
}
