import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { useId, type KeyboardEvent } from 'react';

interface NumberFieldProps {
  name: string;
  label: string;
  /** The text typed: '' is no number (a default, where the field allows one). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  min?: number;
  max?: number;
  placeholder?: string;
  error?: boolean;
  helperText?: string;
  disabled?: boolean;
  /** Narrow and without a visible label, as in a table's cell; `label` still names it. */
  inline?: boolean;
}

/**
 * A whole-number field (a cap, k), on OutlinedInput as TextInput is: the browser's number
 * input, with its arrows and keyboard, and the numeric keyboard on a phone.
 */
export function NumberField({
  name,
  label,
  value,
  onChange,
  onBlur,
  onKeyDown,
  min = 0,
  max,
  placeholder,
  error = false,
  helperText,
  disabled = false,
  inline = false,
}: NumberFieldProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  const input = (
    <OutlinedInput
      id={id}
      name={name}
      type="number"
      size={inline ? 'small' : 'medium'}
      value={value}
      placeholder={placeholder}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
      error={error}
      label={inline ? undefined : label}
      sx={inline ? { width: 96 } : undefined}
      inputProps={{
        min,
        max,
        step: 1,
        inputMode: 'numeric',
        'aria-label': inline ? label : undefined,
        'aria-describedby': helperId,
      }}
    />
  );
  if (inline) return input;
  return (
    <FormControl variant="outlined" error={error} sx={{ minWidth: 220 }}>
      <InputLabel htmlFor={id} shrink={placeholder !== undefined || undefined}>
        {label}
      </InputLabel>
      {input}
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}

/** The whole number typed, null for an empty field, or undefined for anything else. */
export function parseWhole(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}
