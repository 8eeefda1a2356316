import { useQuery } from '@tanstack/react-query';
import { fetchAuthMethods } from './auth.api';

/** Whether federated login is configured; it changes only with the server's configuration. */
export function useAuthMethods() {
  return useQuery({
    queryKey: ['auth_methods'],
    queryFn: ({ signal }) => fetchAuthMethods(signal),
    staleTime: Infinity,
  });
}
