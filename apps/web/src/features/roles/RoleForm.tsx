import type { CommitteeRole, RoleRequest } from '@merit/contract';
import {
  COMMITTEE_ROLES,
  parseExpertiseText,
  validateExpertise,
  validateRole,
} from '@merit/domain';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ErrorList } from '../../components/ErrorList';
import { DateInput } from '../../components/form/DateInput';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { useCommitteeList } from '../committees/committees.api';
import { ROLE_LABELS, toDateInputValue } from './role-dates';
import { createRole, refreshAfterRoleChange, updateRole } from './roles.api';

const LABELS = {
  committeeId: 'Committee',
  role: 'Role',
  commencement: 'Effective from',
  termination: 'Effective until',
  facilities: 'Facilities',
  keywords: 'Keywords',
};

/** Under both expertise fields, until a rule they break takes its place. */
const EXPERTISE_HINT =
  "Used to suggest proposals that match this member's expertise when reviewers are assigned automatically. Separate with commas.";

type RoleValues = Record<keyof typeof LABELS, string>;

const ROLE_OPTIONS = COMMITTEE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/**
 * The form's text as the API takes it: dates stay `YYYY-MM-DD`, whole days in UTC;
 * facilities and keywords, typed with commas between them, become lists.
 */
function toRequest(values: RoleValues): RoleRequest {
  return {
    committeeId: values.committeeId ? Number(values.committeeId) : null,
    role: values.role || null,
    commencement: values.commencement || null,
    termination: values.termination || null,
    facilities: parseExpertiseText(values.facilities),
    keywords: parseExpertiseText(values.keywords),
  };
}

function valuesOf(role: CommitteeRole | undefined): RoleValues {
  if (!role)
    return {
      committeeId: '',
      role: '',
      commencement: '',
      termination: '',
      facilities: '',
      keywords: '',
    };
  return {
    committeeId: String(role.committeeId),
    role: role.role,
    commencement: toDateInputValue(role.commencement),
    termination: toDateInputValue(role.termination),
    facilities: role.facilities.join(', '),
    keywords: role.keywords.join(', '),
  };
}

/**
 * Spec section 5, Role: every field required, and the role may not end before it starts;
 * the optional expertise within its limits (issue 27).
 */
function validate(values: RoleValues) {
  const request = toRequest(values);
  const role = validateRole(request);
  const expertise = validateExpertise(request);
  return { ...(role.ok ? {} : role.errors), ...(expertise.ok ? {} : expertise.errors) };
}

interface RoleFormProps {
  userId: number;
  /** The role to change; a new role without it. */
  role?: CommitteeRole;
}

/** The role form of /users/{userId}/roles/new and /users/{userId}/roles/{roleId}/. */
export function RoleForm({ userId, role }: RoleFormProps) {
  const committees = useCommitteeList();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const backTo = `/users/${userId}/`;

  const form = useServerForm({
    initialValues: valuesOf(role),
    labels: LABELS,
    validate,
    submit: (values: RoleValues) => {
      const body = { ...toRequest(values), userId };
      return role ? updateRole(userId, { ...body, id: role.id }) : createRole(userId, body);
    },
    onSuccess: async () => {
      await refreshAfterRoleChange(queryClient);
      notify(role ? 'The role has been saved.' : 'The role has been added.');
      void navigate(backTo);
    },
  });

  if (committees.isPending) return <LoadingView label="Loading committees…" />;
  if (committees.isError)
    return <LoadFailedView error={committees.error} onRetry={() => void committees.refetch()} />;

  /**
   * A date is checked as soon as it is picked, not only when the field is left: the
   * order of the two dates is what the user needs to see while choosing them.
   */
  const dateField = (name: 'commencement' | 'termination') => {
    const field = form.field(name);
    return {
      ...field,
      onChange: (event: Parameters<typeof field.onChange>[0]) => {
        field.onChange(event);
        field.onBlur();
      },
    };
  };

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit} sx={{ maxWidth: 560 }}>
      <ErrorList messages={form.errors} />
      <Stack spacing={3}>
        {committees.data.length === 0 && (
          // A note, not an alert: it is there from the start, nothing happened.
          <Alert severity="info" role="note">
            There are no committees to give a role on yet.{' '}
            <Link component={RouterLink} to="/committees/new">
              Add a committee first.
            </Link>
          </Alert>
        )}
        <SelectInput
          {...form.field('committeeId')}
          required
          placeholder="Choose a committee"
          options={committees.data.map((committee) => ({
            value: String(committee.id),
            label: committee.name,
          }))}
        />
        <SelectInput
          {...form.field('role')}
          required
          placeholder="Choose a role"
          options={ROLE_OPTIONS}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DateInput {...dateField('commencement')} required />
          <DateInput {...dateField('termination')} required />
        </Stack>
        {(['facilities', 'keywords'] as const).map((name) => {
          const field = form.field(name);
          return (
            <TextInput key={name} {...field} helperText={field.helperText ?? EXPERTISE_HINT} />
          );
        })}
        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" loading={form.isPending}>
            {role ? 'Save' : 'Add Role'}
          </Button>
          <Button component={RouterLink} to={backTo}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
