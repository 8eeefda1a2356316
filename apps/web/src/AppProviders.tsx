import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { clearCacheOnSessionChange } from './api/query-client';
import { NotificationProvider } from './components/notifications/NotificationProvider';
import { theme } from './theme/theme';

/** Everything a page needs around it; shared by the app and the component tests. */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  useEffect(() => clearCacheOnSessionChange(client), [client]);
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <NotificationProvider>{children}</NotificationProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
