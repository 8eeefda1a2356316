import type { AlertColor } from '@mui/material';
import { createContext, use } from 'react';

export type Notify = (message: string, severity?: AlertColor) => void;

export const NotificationContext = createContext<Notify | null>(null);

/** Shows a short message top right that closes by itself (spec section 9). */
export function useNotify(): Notify {
  const notify = use(NotificationContext);
  if (!notify) throw new Error('useNotify is only available inside <NotificationProvider>.');
  return notify;
}
