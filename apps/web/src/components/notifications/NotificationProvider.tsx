import { Alert, Portal, Snackbar, type AlertColor } from '@mui/material';
import { useCallback, useEffect, useReducer, useState, type ReactNode } from 'react';
import { NotificationContext } from './notification-context';

/** Spec section 9: notifications close by themselves after 5000 ms. */
export const NOTIFICATION_AUTO_CLOSE_MS = 5000;

interface Notification {
  id: number;
  message: string;
  severity: AlertColor;
}

interface State {
  /** The first item is on screen; the rest wait their turn. */
  queue: Notification[];
  open: boolean;
}

type Action = { type: 'push'; item: Notification } | { type: 'close' } | { type: 'exited' };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'push':
      // A newer message takes over: the shown one closes and the next follows when it
      // has gone, so two messages never stack on top of each other.
      return { queue: [...state.queue, action.item], open: state.queue.length === 0 };
    case 'close':
      return { ...state, open: false };
    case 'exited': {
      const queue = state.queue.slice(1);
      return { queue, open: queue.length > 0 };
    }
  }
}

let nextId = 1;

/**
 * The element notifications render in: a child of <body>, outside the app's root, and
 * never hidden from assistive technology. An open dialog marks every other child of
 * <body> aria-hidden (MUI's ModalManager), and does so again whenever a dialog above it
 * closes, which would silence a message such as "The extension … has been deleted."
 * raised in a confirmation over another dialog. A notification is an alert, not content
 * a dialog should shut out, so the attribute is taken off again as soon as it is set.
 */
function useNotificationLayer(): HTMLElement {
  const [layer] = useState(() => {
    const element = document.createElement('div');
    element.dataset.layer = 'notifications';
    return element;
  });
  useEffect(() => {
    document.body.append(layer);
    const observer = new MutationObserver(() => {
      if (layer.hasAttribute('aria-hidden')) layer.removeAttribute('aria-hidden');
    });
    observer.observe(layer, { attributes: true, attributeFilter: ['aria-hidden'] });
    return () => {
      observer.disconnect();
      layer.remove();
    };
  }, [layer]);
  return layer;
}

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(reducer, { queue: [], open: false });
  const notify = useCallback((message: string, severity: AlertColor = 'success') => {
    dispatch({ type: 'push', item: { id: nextId++, message, severity } });
  }, []);
  const current = state.queue[0];
  const close = () => dispatch({ type: 'close' });
  const layer = useNotificationLayer();

  return (
    <NotificationContext value={notify}>
      {children}
      {current && (
        <Portal container={layer}>
          <Snackbar
            key={current.id}
            open={state.open}
            autoHideDuration={NOTIFICATION_AUTO_CLOSE_MS}
            anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
            // Top right, below the top bar; above dialogs but beneath menus (theme.ts).
            sx={{ top: { xs: 64, sm: 72 } }}
            onClose={(_event, reason) => {
              // A click elsewhere on the page is not a request to dismiss the message.
              if (reason !== 'clickaway') close();
            }}
            slotProps={{ transition: { onExited: () => dispatch({ type: 'exited' }) } }}
          >
            <Alert
              severity={current.severity}
              onClose={close}
              sx={{ width: '100%', boxShadow: 3, alignItems: 'center' }}
            >
              {current.message}
            </Alert>
          </Snackbar>
        </Portal>
      )}
    </NotificationContext>
  );
}
