import { timeZoneLabel } from '@merit/domain';
import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { useId, type ChangeEvent } from 'react';

interface DateTimeInputProps {
  name: string;
  label: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone, or empty. */
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur?: () => void;
  error?: boolean;
  required?: boolean;
  disabled?: boolean;
  helperText?: string;
}

/**
 * A date and time on the browser's own `datetime-local` input: a picker and keyboard
 * entry in the user's locale, in their own time zone, with a value that is always
 * `YYYY-MM-DDTHH:mm`.
 */
export function DateTimeInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  error = false,
  required = false,
  disabled = false,
  helperText,
}: DateTimeInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  // The label names the zone the picked time is in ("Submission deadline (CET)"), as every
  // date Merit shows does (issue 30); at the picked day, as summer time may differ from now.
  const picked = new Date(value);
  const zoned = `${label} (${timeZoneLabel(Number.isNaN(picked.getTime()) ? new Date() : picked)})`;
  return (
    <FormControl variant="outlined" fullWidth required={required} error={error} disabled={disabled}>
      {/* Always shrunk: an empty input still shows its date and time pattern. */}
      <InputLabel htmlFor={id} shrink>
        {zoned}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type="datetime-local"
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        notched
        label={zoned}
        inputProps={{
          'aria-describedby': helperId,
          min: '1900-01-01T00:00',
          max: '9999-12-31T23:59',
        }}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
