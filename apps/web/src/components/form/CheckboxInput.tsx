import { Checkbox, FormControlLabel } from '@mui/material';
import type { ChangeEvent } from 'react';

interface CheckboxInputProps {
  name: string;
  label: string;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** A labelled checkbox; the whole label toggles it. */
export function CheckboxInput({ name, label, checked, onChange }: CheckboxInputProps) {
  return (
    <FormControlLabel
      control={<Checkbox name={name} checked={checked} onChange={onChange} />}
      label={label}
    />
  );
}
