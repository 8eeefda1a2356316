import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { useId, type ChangeEvent } from 'react';

interface DateInputProps {
  name: string;
  label: string;
  /** `YYYY-MM-DD`, or empty. */
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur?: () => void;
  error?: boolean;
  required?: boolean;
  helperText?: string;
}

/**
 * A date on the browser's own date input: it gives a calendar and keyboard entry in the
 * user's locale, and its value is always `YYYY-MM-DD`.
 */
export function DateInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  error = false,
  required = false,
  helperText,
}: DateInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" fullWidth required={required} error={error}>
      {/* Always shrunk: an empty date input still shows its dd/mm/yyyy pattern. */}
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type="date"
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        notched
        label={label}
        inputProps={{ 'aria-describedby': helperId, min: '1900-01-01', max: '9999-12-31' }}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
