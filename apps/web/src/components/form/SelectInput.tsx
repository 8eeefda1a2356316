import {
  FormControl,
  FormHelperText,
  InputLabel,
  NativeSelect,
  OutlinedInput,
} from '@mui/material';
import { useId, type ChangeEvent } from 'react';

interface SelectInputProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  onBlur?: () => void;
  options: readonly { value: string; label: string }[];
  /** The text of the empty choice shown before one is made. */
  placeholder?: string;
  error?: boolean;
  required?: boolean;
  helperText?: string;
}

/**
 * An outlined drop-down on the browser's own `<select>`: keyboard and screen-reader
 * behaviour come for free, and it spares MUI's Select with its Menu and Popover.
 */
export function SelectInput({
  name,
  label,
  value,
  onChange,
  onBlur,
  options,
  placeholder = 'Select…',
  error = false,
  required = false,
  helperText,
}: SelectInputProps) {
  const id = useId();
  const helperId = helperText ? `${id}-helper` : undefined;
  return (
    <FormControl variant="outlined" fullWidth required={required} error={error}>
      {/* Always shrunk: a select always shows a value, if only the placeholder. */}
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <NativeSelect
        id={id}
        name={name}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        input={<OutlinedInput notched label={label} />}
        inputProps={{ 'aria-describedby': helperId }}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
