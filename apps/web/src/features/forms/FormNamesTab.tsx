import type { FormName } from '@merit/contract';
import { FORM_TYPE_LABELS } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useTableState } from '../../components/table/use-table-state';
import { FormNameDialog } from './FormNameDialog';
import { deleteFormName, formKeys, useFormNames } from './forms.api';

const COLUMNS: readonly Column<FormName>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (formName) => formName.name,
    sort: (formName) => formName.name,
    cellSx: { fontFamily: 'monospace' },
  },
  {
    key: 'display',
    header: 'Display name',
    cell: (formName) => formName.display_name,
    sort: (formName) => formName.display_name,
  },
  {
    key: 'type',
    header: 'Type',
    cell: (formName) => FORM_TYPE_LABELS[formName.type],
    sort: (formName) => FORM_TYPE_LABELS[formName.type],
  },
];

/** The Form Names tab of the Form Builder: add, rename (display name only) and delete. */
export function FormNamesTab() {
  const formNames = useFormNames();
  const queryClient = useQueryClient();
  const notify = useNotify();
  // `null` edits nothing: the dialog adds a new form name.
  const [editing, setEditing] = useState<{ formName: FormName | null } | null>(null);
  const deletion = useDeleteRow<FormName>({
    remove: (formName) => deleteFormName(formName.id),
    canDelete: (formName) => !formName.isUsed,
    name: (formName) => formName.name,
    title: 'Delete this form name?',
    message: (formName) => `The form name ${formName.name} will be deleted. This cannot be undone.`,
    done: (formName) => `The form name ${formName.name} has been deleted.`,
    refresh: (client) => client.invalidateQueries({ queryKey: formKeys.all }),
  });
  const columns: readonly Column<FormName>[] = [
    ...COLUMNS,
    {
      key: 'edit',
      header: 'Edit',
      action: true,
      cell: (formName) => (
        <Button
          size="small"
          aria-label={`Edit ${formName.name}`}
          onClick={() => setEditing({ formName })}
        >
          Edit
        </Button>
      ),
    },
    deletion.column,
  ];
  const table = useTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });
  const shown = searchRows(formNames.data ?? [], table.q, (formName) => [
    formName.name,
    formName.display_name,
  ]);

  let content;
  if (formNames.isPending) {
    content = <LoadingView label="Loading form names…" />;
  } else if (formNames.isError) {
    content = <LoadFailedView error={formNames.error} onRetry={() => void formNames.refetch()} />;
  } else if (formNames.data.length === 0) {
    content = (
      <EmptyState>
        There are no form names yet. Every form is a version of a form name: add one with Add Form
        Name, or use Load example on New Form, which offers to create its form name.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No form name matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        label="Form names"
        columns={columns}
        state={table}
        rows={shown}
        rowKey={(formName) => formName.id}
      />
    );
  }

  return (
    <>
      <ErrorList messages={deletion.errors} />
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 2 }}
      >
        <SearchField label="Search form names" value={table.q} onChange={table.setQuery} />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ formName: null })}
        >
          Add Form Name
        </Button>
      </Box>
      {content}
      <FormNameDialog
        open={editing !== null}
        formName={editing?.formName ?? undefined}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          void queryClient.invalidateQueries({ queryKey: formKeys.all });
          notify(
            editing?.formName
              ? `The form name ${saved.name} has been saved.`
              : `The form name ${saved.name} has been added.`,
          );
        }}
      />
      {deletion.dialog}
    </>
  );
}
