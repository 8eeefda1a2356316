import { MAX_LENGTHS } from '@merit/domain';
import { Stack } from '@mui/material';
import { CheckboxInput } from '../../components/form/CheckboxInput';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import type { CheckboxProps, FieldProps } from '../../components/form/use-server-form';
import { GENDER_OPTIONS, PHONE_HINT, PROFILE_LABELS } from './profile-fields';

/** The gender field's name: `gender` in a registration, `gender_choice` in an account. */
type GenderField = 'gender' | 'gender_choice';

/** What the fields need of a `useServerForm` whose values hold them. */
interface ProfileForm<F extends string> {
  field: (name: F) => FieldProps;
  checkbox: (name: 'is_student') => CheckboxProps;
}

type ProfileFieldsProps<G extends GenderField> = { gender: G } & (
  | {
      /** Ask for the first and last name too (a federated login provides them). */
      names: true;
      form: ProfileForm<'first_name' | 'last_name' | 'institution' | 'phone_number' | G>;
    }
  | { names?: false; form: ProfileForm<'institution' | 'phone_number' | G> }
);

/**
 * The profile of spec section 5 (Account), the same wherever it is filled in: registering,
 * completing a federated registration, and editing the account. Each form places the
 * email and any password fields around it.
 */
export function ProfileFields<G extends GenderField>(props: ProfileFieldsProps<G>) {
  const { form, gender } = props;
  const phone = form.field('phone_number');
  return (
    <>
      {props.names && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextInput
            {...props.form.field('first_name')}
            autoComplete="given-name"
            required
            maxLength={MAX_LENGTHS.firstName}
          />
          <TextInput
            {...props.form.field('last_name')}
            autoComplete="family-name"
            required
            maxLength={MAX_LENGTHS.lastName}
          />
        </Stack>
      )}
      <TextInput
        {...form.field('institution')}
        autoComplete="organization"
        required
        maxLength={MAX_LENGTHS.institution}
      />
      <SelectInput {...form.field(gender)} options={GENDER_OPTIONS} required />
      <TextInput
        {...phone}
        helperText={phone.helperText ?? PHONE_HINT}
        type="tel"
        autoComplete="tel"
        required
        maxLength={MAX_LENGTHS.phone}
      />
      <CheckboxInput {...form.checkbox('is_student')} label={PROFILE_LABELS.is_student} />
    </>
  );
}
