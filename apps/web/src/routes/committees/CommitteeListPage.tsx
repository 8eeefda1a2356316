import type { Committee } from '@merit/contract';
import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button,
  Link,
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
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { useConfirm } from '../../components/use-confirm';
import { usePagedRows } from '../../components/use-paged-rows';
import { adminKeys, deleteCommittee, useCommitteeList } from '../../features/admin/admin.api';

/** /committees (admin only): every committee; Delete only while nothing refers to it. */
export default function CommitteeListPage() {
  const committees = useCommitteeList();
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (committees.data ?? []).filter((committee) =>
    committee.name.toLowerCase().includes(needle),
  );
  const paged = usePagedRows(shown);
  const queryClient = useQueryClient();
  const notify = useNotify();
  const confirm = useConfirm<Committee>();
  const deletion = useMutation({
    mutationFn: (committee: Committee) => deleteCommittee(committee.id),
    onSuccess: (_result, committee) => {
      notify(`The committee ${committee.name} has been deleted.`);
    },
    // A 409 (someone gave it a role meanwhile) also changes what the list should show.
    onSettled: () => {
      confirm.close();
      void queryClient.invalidateQueries({ queryKey: adminKeys.committees });
    },
  });

  let content;
  if (committees.isPending) {
    content = <LoadingView label="Loading committees…" />;
  } else if (committees.isError) {
    content = <LoadFailedView error={committees.error} onRetry={() => void committees.refetch()} />;
  } else if (committees.data.length === 0) {
    content = <EmptyState>There are no committees yet. Add one to start.</EmptyState>;
  } else if (shown.length === 0) {
    content = <EmptyState>{`No committee matches “${search.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label="Committees">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell align="right">Delete</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {paged.rows.map((committee) => (
              <TableRow key={committee.id} hover>
                <TableCell>
                  <Link component={RouterLink} to={`/committees/${committee.id}/`}>
                    {committee.name}
                  </Link>
                </TableCell>
                <TableCell align="right">
                  {committee.canDelete ? (
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete ${committee.name}`}
                      onClick={() => {
                        deletion.reset();
                        confirm.ask(committee);
                      }}
                    >
                      Delete
                    </Button>
                  ) : (
                    <Typography component="span" color="text.secondary" sx={{ px: 1 }}>
                      In use
                    </Typography>
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
      <PageHeading
        actions={
          <Button
            component={RouterLink}
            to="/committees/new"
            variant="contained"
            startIcon={<AddIcon />}
          >
            Add Committee
          </Button>
        }
      >
        Manage Committees
      </PageHeading>
      <ErrorList messages={deletion.isError ? errorMessages(deletion.error) : []} />
      <Box sx={{ mb: 2 }}>
        <SearchField
          label="Search committees"
          value={search}
          onChange={(value) => {
            paged.resetPage();
            setSearch(value);
          }}
        />
      </Box>
      {content}
      <ConfirmDialog
        open={confirm.open}
        title="Delete this committee?"
        confirmLabel="Delete"
        onConfirm={() => confirm.subject && deletion.mutate(confirm.subject)}
        onCancel={confirm.close}
        pending={deletion.isPending}
      >
        {`The committee ${confirm.subject?.name ?? ''} will be deleted. This cannot be undone.`}
      </ConfirmDialog>
    </>
  );
}
