import type { FormName } from '@merit/contract';
import { FORM_TYPE_LABELS } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { SearchField } from '../../components/SearchField';
import { useConfirm } from '../../components/use-confirm';
import { usePagedRows } from '../../components/use-paged-rows';
import { FormNameDialog } from './FormNameDialog';
import { deleteFormName, formKeys, useFormNames } from './forms.api';

/** The Form Names tab of the Form Builder: add, rename (display name only) and delete. */
export function FormNamesTab() {
  const formNames = useFormNames();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (formNames.data ?? []).filter(
    (formName) =>
      formName.name.toLowerCase().includes(needle) ||
      formName.display_name.toLowerCase().includes(needle),
  );
  const paged = usePagedRows(shown);
  // `null` edits nothing: the dialog adds a new form name.
  const [editing, setEditing] = useState<{ formName: FormName | null } | null>(null);
  const confirm = useConfirm<FormName>();
  const deletion = useMutation({
    mutationFn: (formName: FormName) => deleteFormName(formName.id),
    onSuccess: (_result, formName) => notify(`The form name ${formName.name} has been deleted.`),
    onSettled: () => {
      confirm.close();
      void queryClient.invalidateQueries({ queryKey: formKeys.all });
    },
  });

  let content;
  if (formNames.isPending) {
    content = <LoadingView label="Loading form names…" />;
  } else if (formNames.isError) {
    content = <LoadFailedView error={formNames.error} onRetry={() => void formNames.refetch()} />;
  } else if (formNames.data.length === 0) {
    content = (
      <EmptyState>
        There are no form names yet. Every form is a version of a form name: add one first.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No form name matches “${search.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label="Form names">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Display name</TableCell>
              <TableCell>Type</TableCell>
              <TableCell align="right">Edit</TableCell>
              <TableCell align="right">Delete</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {paged.rows.map((formName) => (
              <TableRow key={formName.id} hover>
                <TableCell sx={{ fontFamily: 'monospace' }}>{formName.name}</TableCell>
                <TableCell>{formName.display_name}</TableCell>
                <TableCell>{FORM_TYPE_LABELS[formName.type]}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    aria-label={`Edit ${formName.name}`}
                    onClick={() => setEditing({ formName })}
                  >
                    Edit
                  </Button>
                </TableCell>
                <TableCell align="right">
                  {formName.isUsed ? (
                    <Typography component="span" color="text.secondary" sx={{ px: 1 }}>
                      In use
                    </Typography>
                  ) : (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${formName.name}`}
                      onClick={() => {
                        deletion.reset();
                        confirm.ask(formName);
                      }}
                    >
                      Delete
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {paged.paged && <TablePagination {...paged.pagination} />}
      </TableContainer>
    );
  }

  return (
    <>
      <ErrorList messages={deletion.isError ? errorMessages(deletion.error) : []} />
      <Box
        sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 2, mb: 2 }}
      >
        <SearchField
          label="Search form names"
          value={search}
          onChange={(value) => {
            paged.resetPage();
            setSearch(value);
          }}
        />
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
      <ConfirmDialog
        open={confirm.open}
        title="Delete this form name?"
        confirmLabel="Delete"
        onConfirm={() => confirm.subject && deletion.mutate(confirm.subject)}
        onCancel={confirm.close}
        pending={deletion.isPending}
      >
        {`The form name ${confirm.subject?.name ?? ''} will be deleted. This cannot be undone.`}
      </ConfirmDialog>
    </>
  );
}
