import type { Form } from '@merit/contract';
import { FORM_TYPE_LABELS } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useTableState } from '../../components/table/use-table-state';
import { deleteForm, formKeys, useFormList } from './forms.api';

const describe = (form: Form) => `${form.display_name} version ${form.version}`;

const COLUMNS: readonly Column<Form>[] = [
  {
    key: 'form',
    header: 'Form',
    cell: (form) => form.display_name,
    sort: (form) => form.display_name,
  },
  {
    key: 'type',
    header: 'Type',
    cell: (form) => FORM_TYPE_LABELS[form.type],
    sort: (form) => FORM_TYPE_LABELS[form.type],
  },
  { key: 'version', header: 'Version', cell: (form) => form.version, sort: (form) => form.version },
  {
    key: 'edit',
    header: 'Edit',
    action: true,
    // A form that has saved responses cannot change (spec section 4): it opens read-only.
    cell: (form) => (
      <Button
        component={RouterLink}
        to={`/forms/${form.id}/`}
        size="small"
        aria-label={`${form.isUsed ? 'View' : 'Edit'} ${describe(form)}`}
      >
        {form.isUsed ? 'View' : 'Edit'}
      </Button>
    ),
  },
];

/** The Forms tab of the Form Builder: every form (a version of a form name). */
export function FormsTab() {
  const forms = useFormList();
  const deletion = useDeleteRow<Form>({
    remove: (form) => deleteForm(form.id),
    canDelete: (form) => !form.isUsed,
    name: describe,
    title: 'Delete this form?',
    message: (form) => `${describe(form)} will be deleted. This cannot be undone.`,
    done: (form) => `${describe(form)} has been deleted.`,
    refresh: (client) => client.invalidateQueries({ queryKey: formKeys.all }),
  });
  const columns = [...COLUMNS, deletion.column];
  const table = useTableState(columns, { defaultSort: { key: 'form', direction: 'asc' } });
  const shown = searchRows(forms.data ?? [], table.q, (form) => [
    form.display_name,
    form.version,
    FORM_TYPE_LABELS[form.type],
  ]);

  let content;
  if (forms.isPending) {
    content = <LoadingView label="Loading forms…" />;
  } else if (forms.isError) {
    content = <LoadFailedView error={forms.error} onRetry={() => void forms.refetch()} />;
  } else if (forms.data.length === 0) {
    content = (
      <EmptyState>
        There are no forms yet. Create one with New Form, where Load example starts from a
        ready-made form.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No form matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        label="Forms"
        columns={columns}
        state={table}
        rows={shown}
        rowKey={(form) => form.id}
      />
    );
  }

  return (
    <>
      <ErrorList messages={deletion.errors} />
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 2 }}
      >
        <SearchField label="Search forms" value={table.q} onChange={table.setQuery} />
        <Button component={RouterLink} to="/forms/new" variant="contained" startIcon={<AddIcon />}>
          New Form
        </Button>
      </Box>
      {content}
      {deletion.dialog}
    </>
  );
}
