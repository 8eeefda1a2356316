import type { Form } from '@merit/contract';
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
import { Link as RouterLink } from 'react-router';
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
import { deleteForm, formKeys, useFormList } from './forms.api';

const describe = (form: Form) => `${form.display_name} version ${form.version}`;

/** The Forms tab of the Form Builder: every form (a version of a form name). */
export function FormsTab() {
  const forms = useFormList();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (forms.data ?? []).filter(
    (form) =>
      form.display_name.toLowerCase().includes(needle) ||
      form.version.toLowerCase().includes(needle) ||
      FORM_TYPE_LABELS[form.type].toLowerCase().includes(needle),
  );
  const paged = usePagedRows(shown);
  const confirm = useConfirm<Form>();
  const deletion = useMutation({
    mutationFn: (form: Form) => deleteForm(form.id),
    onSuccess: (_result, form) => notify(`${describe(form)} has been deleted.`),
    onSettled: () => {
      confirm.close();
      void queryClient.invalidateQueries({ queryKey: formKeys.all });
    },
  });

  let content;
  if (forms.isPending) {
    content = <LoadingView label="Loading forms…" />;
  } else if (forms.isError) {
    content = <LoadFailedView error={forms.error} onRetry={() => void forms.refetch()} />;
  } else if (forms.data.length === 0) {
    content = (
      <EmptyState>
        There are no forms yet. Create one with New Form, or start from an example there.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No form matches “${search.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label="Forms">
          <TableHead>
            <TableRow>
              <TableCell>Form</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Version</TableCell>
              <TableCell align="right">Edit</TableCell>
              <TableCell align="right">Delete</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {paged.rows.map((form) => (
              <TableRow key={form.id} hover>
                <TableCell>{form.display_name}</TableCell>
                <TableCell>{FORM_TYPE_LABELS[form.type]}</TableCell>
                <TableCell>{form.version}</TableCell>
                <TableCell align="right">
                  <Button
                    component={RouterLink}
                    to={`/forms/${form.id}/`}
                    size="small"
                    aria-label={`${form.isUsed ? 'View' : 'Edit'} ${describe(form)}`}
                  >
                    {form.isUsed ? 'View' : 'Edit'}
                  </Button>
                </TableCell>
                <TableCell align="right">
                  {form.isUsed ? (
                    <Typography component="span" color="text.secondary" sx={{ px: 1 }}>
                      In use
                    </Typography>
                  ) : (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${describe(form)}`}
                      onClick={() => {
                        deletion.reset();
                        confirm.ask(form);
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
          label="Search forms"
          value={search}
          onChange={(value) => {
            paged.resetPage();
            setSearch(value);
          }}
        />
        <Button component={RouterLink} to="/forms/new" variant="contained" startIcon={<AddIcon />}>
          New Form
        </Button>
      </Box>
      {content}
      <ConfirmDialog
        open={confirm.open}
        title="Delete this form?"
        confirmLabel="Delete"
        onConfirm={() => confirm.subject && deletion.mutate(confirm.subject)}
        onCancel={confirm.close}
        pending={deletion.isPending}
      >
        {`${confirm.subject ? describe(confirm.subject) : ''} will be deleted. This cannot be undone.`}
      </ConfirmDialog>
    </>
  );
}
