import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import {
  useId,
  type ChangeEvent,
  type HTMLInputAutoCompleteAttribute,
  type ReactNode,
} from 'react';

export interface TextInputProps {
  name: string;
  label: string;
  value: string;
  onChange?: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur?: () => void;
  error?: boolean;
  required?: boolean;
  type?: 'text' | 'password' | 'email' | 'tel';
  autoComplete?: HTMLInputAutoCompleteAttribute;
  maxLength?: number;
  /** A rule's message when `error`, otherwise a hint. */
  helperText?: ReactNode;
  /** Shown but not editable (still focusable and read by screen readers, unlike `disabled`). */
  readOnly?: boolean;
  /** Inside the field at its end, such as PasswordInput's show button. */
  endAdornment?: ReactNode;
  /** The keyboard a phone shows: `numeric` for a code of digits. */
  inputMode?: 'text' | 'numeric';
}

/**
 * An outlined text field. MUI's TextField would do the same, but it imports Select and
 * with it Menu, Popover and Modal (~17 KB gzipped) into every page with a form,
 * including the login page.
 */
export function TextInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  error = false,
  required = false,
  type = 'text',
  autoComplete,
  maxLength,
  helperText,
  readOnly = false,
  endAdornment,
  inputMode,
}: TextInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" fullWidth required={required} error={error}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        readOnly={readOnly}
        // A read-only field must not look like one waiting for input.
        sx={readOnly ? { bgcolor: 'action.hover' } : undefined}
        autoComplete={autoComplete}
        // Sizes the notch in the outline; MUI adds the asterisk of a required field.
        label={label}
        endAdornment={endAdornment}
        inputProps={{ maxLength, inputMode, 'aria-describedby': helperId }}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
