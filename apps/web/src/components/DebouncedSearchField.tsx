import { useEffect, useRef, useState } from 'react';
import { SearchField } from './SearchField';

interface DebouncedSearchFieldProps {
  /** Names the field for screen readers, e.g. "Search proposals". */
  label: string;
  /** The search in force (the address's), which the field starts from. */
  value: string;
  /** Called with the text once typing has paused for `delayMs`. */
  onChange: (value: string) => void;
  delayMs: number;
  placeholder?: string;
}

/**
 * A SearchField that keeps the letters to itself while they are typed and reports the
 * text once typing pauses: each key re-renders the field alone, not the page and the
 * table around it (bench figure (e)). A `value` changed from elsewhere (Back to an earlier
 * search) replaces what the field shows.
 */
export function DebouncedSearchField({
  value,
  onChange,
  delayMs,
  ...field
}: DebouncedSearchFieldProps) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  // The latest onChange without restarting the pause whenever the page re-renders.
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  });
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => report.current(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, value, delayMs]);
  return <SearchField {...field} value={text} onChange={setText} />;
}
