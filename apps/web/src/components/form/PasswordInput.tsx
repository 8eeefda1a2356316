import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment } from '@mui/material';
import { useState } from 'react';
import { TextInput, type TextInputProps } from './TextInput';

/**
 * A password field with a button that shows what was typed (OWASP ASVS V2.1.12), so a
 * long password can be checked before it is sent. Every password field of the app is
 * one of these. Shown or not, the field keeps its `autocomplete`, so password managers
 * still fill and save it.
 */
export function PasswordInput(props: Omit<TextInputProps, 'type' | 'endAdornment'>) {
  const [shown, setShown] = useState(false);
  return (
    <TextInput
      {...props}
      type={shown ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={shown ? 'Hide password' : 'Show password'}
            onClick={() => setShown((was) => !was)}
            // A click keeps the caret in the field; the keyboard still reaches the button.
            onMouseDown={(event) => event.preventDefault()}
            edge="end"
          >
            {shown ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
