import { useMutation, useQueryClient } from '@tanstack/react-query';
import { verifyEmail } from './auth.api';
import { currentUserKey } from './session-hooks';

/** Spends the key of a verification email's link: a new account's, or a new address's. */
export function useEmailVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    // A signed-in user confirmed a new address: their details now show it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
}
