import type { Committee } from '@merit/contract';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useTableState } from '../../components/table/use-table-state';
import {
  committeeKeys,
  deleteCommittee,
  useCommitteeList,
} from '../../features/committees/committees.api';

const nameColumn: Column<Committee> = {
  key: 'name',
  header: 'Name',
  cell: (committee) => (
    <Link component={RouterLink} to={`/committees/${committee.id}/`}>
      {committee.name}
    </Link>
  ),
  sort: (committee) => committee.name,
};

/** /committees (admin only): every committee; Delete only while nothing refers to it. */
export default function CommitteeListPage() {
  const committees = useCommitteeList();
  const deletion = useDeleteRow<Committee>({
    remove: (committee) => deleteCommittee(committee.id),
    canDelete: (committee) => committee.canDelete,
    name: (committee) => committee.name,
    title: 'Delete this committee?',
    message: (committee) =>
      `The committee ${committee.name} will be deleted. This cannot be undone.`,
    done: (committee) => `The committee ${committee.name} has been deleted.`,
    refresh: (client) => client.invalidateQueries({ queryKey: committeeKeys.list }),
  });
  const columns = [nameColumn, deletion.column];
  const table = useTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });
  const shown = searchRows(committees.data ?? [], table.q, (committee) => [committee.name]);

  let content;
  if (committees.isPending) {
    content = <LoadingView label="Loading committees…" />;
  } else if (committees.isError) {
    content = <LoadFailedView error={committees.error} onRetry={() => void committees.refetch()} />;
  } else if (committees.data.length === 0) {
    content = <EmptyState>There are no committees yet. Create one with Add Committee.</EmptyState>;
  } else if (shown.length === 0) {
    content = <EmptyState>{`No committee matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        label="Committees"
        columns={columns}
        state={table}
        rows={shown}
        rowKey={(committee) => committee.id}
      />
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
      <ErrorList messages={deletion.errors} />
      <Box sx={{ mb: 2 }}>
        <SearchField label="Search committees" value={table.q} onChange={table.setQuery} />
      </Box>
      {content}
      {deletion.dialog}
    </>
  );
}
