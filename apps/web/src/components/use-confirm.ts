import { useState } from 'react';

/**
 * The state of a confirmation dialog about one thing (a role, a committee). The thing
 * stays after the dialog closes, so its text does not go blank while it fades out.
 */
export function useConfirm<T>() {
  const [subject, setSubject] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  return {
    subject,
    open,
    ask: (next: T) => {
      setSubject(next);
      setOpen(true);
    },
    close: () => setOpen(false),
  };
}
