import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button } from '@mui/material';
import { useRef, type ReactNode } from 'react';

interface FileChooserButtonProps {
  children: ReactNode;
  /** The input's `accept`: what the browser's file picker offers first. */
  accept?: string;
  disabled?: boolean;
  /** Names the button for screen readers when its text alone would be ambiguous. */
  'aria-label'?: string;
  onChoose: (file: File) => void;
}

/**
 * A button that opens the browser's file picker for one file. The input itself stays
 * hidden: a real button takes the focus and the keyboard as every other button does.
 */
export function FileChooserButton({
  children,
  accept,
  disabled,
  'aria-label': ariaLabel,
  onChoose,
}: FileChooserButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<UploadFileIcon />}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => input.current?.click()}
      >
        {children}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept={accept}
        aria-label={ariaLabel ?? (typeof children === 'string' ? children : undefined)}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared, so choosing the same file again (to resume it) is a change too.
          event.target.value = '';
          if (file) onChoose(file);
        }}
      />
    </>
  );
}
