import type { Biddable, BidsResponse } from '@merit/contract';
import { PREFERENCE_LABELS, PREFERENCES, type Preference } from '@merit/domain';
import {
  Alert,
  Box,
  Link,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { SelectInput } from '../../components/form/SelectInput';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useCall } from '../calls/calls.api';
import { assignmentKeys, saveBid, useBids, withBid } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { MyCapForm } from './MyCapForm';

/**
 * Bid on Proposals (/calls/{callId}/bids, issue 27): a member of the committee says, for
 * each submitted proposal, how gladly they would review it. Each click is saved at once;
 * Propose reads the bids, and never gives anyone a proposal they marked Not me.
 */
export function BidList({ callId }: { callId: number }) {
  const call = useCall(callId);
  const bids = useBids(callId);

  if (bids.isPending || call.isPending) return <LoadingView label="Loading the proposals…" />;
  if (isApiError(bids.error, 403)) return <AccessDeniedView />;
  if (bids.isError)
    return <LoadFailedView error={bids.error} onRetry={() => void bids.refetch()} />;
  const callName = call.data?.name ?? 'The call';

  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{callName}</BackLink>
      <PageHeading>Bid on Proposals</PageHeading>
      {!bids.data.biddingOpen && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {assignmentTexts.biddingClosed}
        </Alert>
      )}
      <MyCapForm
        key={bids.data.cap ?? 'none'}
        callId={callId}
        cap={bids.data.cap}
        chairCap={bids.data.chairCap}
        load={bids.data.load}
      />
      <Bids callId={callId} data={bids.data} />
    </>
  );
}

function Bids({ callId, data }: { callId: number; data: BidsResponse }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [type, setType] = useState('');
  const [facility, setFacility] = useState('');

  const bid = useMutation({
    mutationFn: ({ item, preference }: { item: Biddable; preference: Preference }) =>
      saveBid(callId, item.proposalId, preference),
    // Shown at once; put back if the server refuses it.
    onMutate: async ({ item, preference }) => {
      const key = assignmentKeys.bids(callId);
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<BidsResponse>(
        key,
        (current) => current && withBid(current, item.proposalId, preference),
      );
    },
    onError: (error, { item }) => {
      queryClient.setQueryData<BidsResponse>(
        assignmentKeys.bids(callId),
        (current) => current && withBid(current, item.proposalId, item.preference),
      );
      notify(assignmentTexts.bidFailed(item.name, errorMessages(error).join(' ')), 'error');
    },
  });

  const columns: Column<Biddable>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: (row) => row.name,
      cell: (row) =>
        data.biddingShowsProposals ? (
          <Link component={RouterLink} to={`/calls/${callId}/proposals/${row.proposalId}/`}>
            {row.name}
          </Link>
        ) : (
          row.name
        ),
    },
    { key: 'type', header: 'Type', sort: (row) => row.typeName, cell: (row) => row.typeName },
    {
      key: 'facilities',
      header: 'Facilities',
      cell: (row) => (row.facilities.length === 0 ? '—' : row.facilities.join(', ')),
    },
    {
      key: 'institutions',
      header: 'Institutions',
      cell: (row) => (row.institutions.length === 0 ? '—' : row.institutions.join(', ')),
    },
    {
      key: 'bid',
      header: 'Your bid',
      action: true,
      cell: (row) => (
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label={`Your bid on ${row.name}`}
          value={row.preference}
          disabled={!data.biddingOpen}
          // A click on the bid already chosen leaves it chosen (exclusive groups answer null).
          onChange={(_event, preference: Preference | null) =>
            preference && preference !== row.preference && bid.mutate({ item: row, preference })
          }
        >
          {PREFERENCES.map((preference) => (
            <ToggleButton
              key={preference}
              value={preference}
              aria-label={`${row.name}: ${PREFERENCE_LABELS[preference]}`}
              sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
            >
              {PREFERENCE_LABELS[preference]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      ),
    },
  ];
  const table = useTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });

  if (data.proposals.length === 0) return <EmptyState>{assignmentTexts.noProposals}</EmptyState>;

  const types = [...new Set(data.proposals.map((item) => item.typeName))].sort();
  const facilities = [...new Set(data.proposals.flatMap((item) => item.facilities))].sort();
  const words = table.q.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const shown = data.proposals.filter(
    (item) =>
      (type === '' || item.typeName === type) &&
      (facility === '' || item.facilities.includes(facility)) &&
      words.every((word) =>
        [item.name, ...item.institutions].join(' ').toLocaleLowerCase().includes(word),
      ),
  );
  const made = data.proposals.filter((item) => item.preference !== 'neutral').length;

  return (
    <>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ gap: 2, mb: 2, alignItems: { md: 'center' } }}
      >
        <SearchField label="Search proposals" value={table.q} onChange={table.setQuery} />
        <Box sx={{ minWidth: 180 }}>
          <SelectInput
            name="type"
            label="Type"
            placeholder="All types"
            value={type}
            onChange={(event) => setType(event.target.value)}
            options={types.map((name) => ({ value: name, label: name }))}
          />
        </Box>
        <Box sx={{ minWidth: 180 }}>
          <SelectInput
            name="facility"
            label="Facility"
            placeholder="All facilities"
            value={facility}
            onChange={(event) => setFacility(event.target.value)}
            options={facilities.map((name) => ({ value: name, label: name }))}
          />
        </Box>
        <Typography role="status">{assignmentTexts.bidsMade(made)}</Typography>
      </Stack>
      {shown.length === 0 ? (
        <EmptyState>{assignmentTexts.noMatch}</EmptyState>
      ) : (
        <DataTable
          label="Proposals to bid on"
          columns={columns}
          state={table}
          rows={shown}
          rowKey={(row) => row.proposalId}
        />
      )}
    </>
  );
}
