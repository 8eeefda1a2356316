import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, OutlinedInput } from '@mui/material';

interface SearchFieldProps {
  /** Names the field for screen readers, e.g. "Search users". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}

/** The search box above a table (spec section 9: tables have search). */
export function SearchField({ label, value, onChange, placeholder }: SearchFieldProps) {
  return (
    <OutlinedInput
      type="search"
      size="small"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder ?? label}
      inputProps={{ 'aria-label': label }}
      startAdornment={
        <InputAdornment position="start">
          <SearchIcon fontSize="small" />
        </InputAdornment>
      }
      sx={{ width: { xs: '100%', sm: 360 }, bgcolor: 'background.paper' }}
    />
  );
}
