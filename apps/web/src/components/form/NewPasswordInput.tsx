import type { PasswordOwner } from '@merit/domain';
import { PasswordInput } from './PasswordInput';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';
import type { TextInputProps } from './TextInput';

interface NewPasswordInputProps extends Omit<
  TextInputProps,
  'type' | 'endAdornment' | 'autoComplete'
> {
  /** Who the password is for, when known: a password like their name scores 0. */
  owner?: PasswordOwner | undefined;
}

/**
 * The field where a user chooses a password (registration, reset, change), with the
 * strength meter under it. Its own module so the meter's rules stay out of the login
 * page's JavaScript.
 */
export function NewPasswordInput({ owner, ...props }: NewPasswordInputProps) {
  return (
    <div>
      <PasswordInput {...props} autoComplete="new-password" />
      <PasswordStrengthMeter password={props.value} owner={owner} />
    </div>
  );
}
