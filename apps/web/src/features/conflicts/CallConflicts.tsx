import type {
  CallConflictsPage,
  CallConflictsQuery,
  CallDetail,
  ConflictChange,
  ConflictItem,
} from '@merit/contract';
import {
  CONFLICT_SOURCE_LABELS,
  CONFLICT_STATE_LABELS,
  CONFLICT_STATES,
  CONFLICT_TYPE_LABELS,
  CONFLICT_TYPES,
  conflictChangeProblem,
  conflictMessages,
  conflictScreenMessages,
  type ConflictState,
  type ConflictType,
} from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { idOf } from '../../components/use-id-param';
import { useConfirm } from '../../components/use-confirm';
import { useCurrentUser } from '../auth/session-hooks';
import { useCall } from '../calls/calls.api';
import { AddConflictDialog } from './AddConflictDialog';
import { conflictName, evidenceText } from './conflict-words';
import {
  changeConflict,
  changeConflicts,
  deleteConflict,
  refreshConflicts,
  useCallConflicts,
} from './conflicts.api';

/** The address's filters: `state`, `type`, `user` (a member) and `proposal`. */
const FILTERS = ['state', 'type', 'user', 'proposal'] as const;

const STATE_COLORS: Record<ConflictState, 'warning' | 'error' | 'default'> = {
  suggested: 'warning',
  confirmed: 'error',
  dismissed: 'default',
};

/** The filters as the address writes them; anything it cannot mean reads as no filter. */
function readFilters(params: URLSearchParams): Omit<CallConflictsQuery, 'page' | 'pageSize'> {
  const state = params.get('state');
  const type = params.get('type');
  const user = idOf(params.get('user') ?? undefined);
  const proposal = idOf(params.get('proposal') ?? undefined);
  return {
    ...((CONFLICT_STATES as readonly string[]).includes(state ?? '')
      ? { state: state as ConflictState }
      : {}),
    ...((CONFLICT_TYPES as readonly string[]).includes(type ?? '')
      ? { type: type as ConflictType }
      : {}),
    ...(user !== null ? { user } : {}),
    ...(proposal !== null ? { proposal } : {}),
  };
}

/**
 * The chairs' Conflicts page of a call (/calls/{callId}/conflicts, issue 26): every
 * conflict of interest of its proposals, filtered by state (chips with the counts), kind,
 * member and proposal, a page at a time; what Merit matched, in words; confirm, dismiss,
 * pin and remove one, confirm or dismiss the ones ticked at once, and add one.
 */
export function CallConflicts({ callId }: { callId: number }) {
  const call = useCall(callId);
  const [params, setParams] = useSearchParams();
  const table = useTableState([], { defaultSort: { key: 'proposal', direction: 'asc' } });
  const filters = readFilters(params);
  const query: CallConflictsQuery = {
    ...filters,
    page: table.page + 1,
    pageSize: table.pageSize,
  };
  const manage = call.data?.abilities.manage === true;
  const conflicts = useCallConflicts(callId, query, manage);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!manage || isApiError(conflicts.error, 403)) return <AccessDeniedView />;

  /** Sets one filter (null removes it), from the first page. */
  const setFilter = (key: (typeof FILTERS)[number], value: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
      next.delete(table.keys.page);
      return next;
    });

  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>
      <PageHeading actions={<AddButton callId={callId} page={conflicts.data} />}>
        Conflicts of Interest
      </PageHeading>
      {!call.data.conflicts.enabled && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {conflictMessages.conflictsOff}
        </Alert>
      )}
      {conflicts.isPending ? (
        <LoadingView label="Loading the conflicts…" />
      ) : conflicts.isError ? (
        <LoadFailedView error={conflicts.error} onRetry={() => void conflicts.refetch()} />
      ) : (
        <ConflictList
          call={call.data}
          page={conflicts.data}
          filters={filters}
          setFilter={setFilter}
          table={table}
          queryKey={JSON.stringify(query)}
        />
      )}
    </>
  );
}

/** Add Conflict, once the committee's members are known. */
function AddButton({ callId, page }: { callId: number; page: CallConflictsPage | undefined }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="contained"
        startIcon={<AddIcon />}
        disabled={page === undefined}
        onClick={() => setOpen(true)}
      >
        Add Conflict
      </Button>
      <AddConflictDialog
        callId={callId}
        members={page?.members ?? []}
        open={open}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

type RowAction = { item: ConflictItem } & (
  { kind: 'change'; change: ConflictChange } | { kind: 'remove' }
);

interface ConflictListProps {
  call: CallDetail;
  page: CallConflictsPage;
  filters: ReturnType<typeof readFilters>;
  setFilter: (key: (typeof FILTERS)[number], value: string | null) => void;
  table: ReturnType<typeof useTableState>;
  /** The query shown: a ticked row stays ticked only while its page is on screen. */
  queryKey: string;
}

function ConflictList({ call, page, filters, setFilter, table, queryKey }: ConflictListProps) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<number> }>({
    key: queryKey,
    ids: new Set(),
  });
  const selected = selection.key === queryKey ? selection.ids : new Set<number>();
  const select = (ids: ReadonlySet<number>) => setSelection({ key: queryKey, ids });
  const [refused, setRefused] = useState<{ name: string; detail: string }[]>([]);

  const actor = { id: user.id, isAdmin: user.is_admin, roles: [] };
  /**
   * Whether the chair may do this to a conflict: as the server says (`abilities`), or,
   * from a server that does not say, by the domain's rule it applies (no one judges their
   * own; authorship stays; a member's own declaration is not dismissed for them).
   */
  const may = (item: ConflictItem, action: 'confirm' | 'dismiss' | 'pin' | 'remove') => {
    if (item.abilities) return item.abilities[action];
    const change: { state?: ConflictState; remove?: boolean } =
      action === 'confirm'
        ? { state: 'confirmed' }
        : action === 'dismiss'
          ? { state: 'dismissed' }
          : action === 'remove'
            ? { remove: true }
            : {};
    return conflictChangeProblem(actor, item, change) === null;
  };

  const removal = useConfirm<ConflictItem>();
  const dismissal = useConfirm<number>();
  const rowAction = useMutation({
    mutationFn: (action: RowAction) =>
      action.kind === 'remove'
        ? deleteConflict(action.item.id)
        : changeConflict(action.item.id, action.change),
    onSuccess: (_result, action) => notify(rowDone(action)),
    onSettled: async () => {
      removal.close();
      await refreshConflicts(queryClient);
    },
  });

  const bulk = useMutation({
    mutationFn: ({ state }: { state: 'confirmed' | 'dismissed' }) =>
      changeConflicts({ ids: [...selected], state }),
    onSuccess: (result, { state }) => {
      const count = result.changed.length;
      if (count > 0)
        notify(
          `${count === 1 ? '1 conflict' : `${count} conflicts`} ${state === 'confirmed' ? 'confirmed' : 'dismissed'}.`,
        );
      setRefused(
        result.refused.map(({ id, detail }) => {
          const item = page.items.find((row) => row.id === id);
          return { name: item ? conflictName(item) : `Conflict ${id}`, detail };
        }),
      );
      select(new Set(result.refused.map(({ id }) => id)));
    },
    onSettled: async () => {
      dismissal.close();
      await refreshConflicts(queryClient);
    },
  });

  const act = (action: RowAction) => {
    bulk.reset();
    setRefused([]);
    if (action.kind === 'remove') removal.ask(action.item);
    else rowAction.mutate(action);
  };

  const allOnPage = page.items.length > 0 && page.items.every((item) => selected.has(item.id));
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    select(next);
  };

  const columns: Column<ConflictItem>[] = [
    {
      // The row's checkbox beside its name: on a phone the first column is the card's title.
      key: 'proposal',
      header: 'Proposal',
      cell: (row) => (
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Checkbox
            size="small"
            sx={{ ml: -1 }}
            checked={selected.has(row.id)}
            onChange={(event) => toggle(row.id, event.target.checked)}
            slotProps={{
              input: { 'aria-label': `Select the conflict of ${conflictName(row)}` },
            }}
          />
          <Link component={RouterLink} to={`/calls/${call.id}/proposals/${row.proposalId}/`}>
            {row.proposalName}
          </Link>
        </Stack>
      ),
    },
    {
      key: 'member',
      header: 'Member',
      cell: (row) => (
        <>
          {row.userName}
          {row.institution && (
            <Typography variant="body2" color="text.secondary">
              {row.institution}
            </Typography>
          )}
        </>
      ),
    },
    { key: 'type', header: 'Type', cell: (row) => CONFLICT_TYPE_LABELS[row.type] },
    {
      key: 'state',
      header: 'State',
      cell: (row) => (
        <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
          <Chip
            size="small"
            label={CONFLICT_STATE_LABELS[row.state]}
            color={STATE_COLORS[row.state]}
            variant={row.state === 'dismissed' ? 'outlined' : 'filled'}
          />
          {row.pinned && (
            <Chip size="small" variant="outlined" icon={<LockIcon />} label="Pinned" />
          )}
        </Stack>
      ),
    },
    { key: 'source', header: 'Source', cell: (row) => CONFLICT_SOURCE_LABELS[row.source] },
    {
      key: 'evidence',
      header: 'Evidence and reason',
      cellSx: { minWidth: 220 },
      cell: (row) => <Evidence item={row} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      action: true,
      cell: (row) => {
        const name = conflictName(row);
        const busy = rowAction.isPending && rowAction.variables?.item.id === row.id;
        return (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            {row.state !== 'confirmed' && may(row, 'confirm') && (
              <Button
                size="small"
                variant="outlined"
                aria-label={`Confirm the conflict of ${name}`}
                disabled={rowAction.isPending}
                loading={busy && rowAction.variables?.kind === 'change'}
                onClick={() => act({ item: row, kind: 'change', change: { state: 'confirmed' } })}
              >
                Confirm
              </Button>
            )}
            {row.state !== 'dismissed' && may(row, 'dismiss') && (
              <Button
                size="small"
                variant="outlined"
                aria-label={`Dismiss the conflict of ${name}`}
                disabled={rowAction.isPending}
                onClick={() => act({ item: row, kind: 'change', change: { state: 'dismissed' } })}
              >
                Dismiss
              </Button>
            )}
            {may(row, 'pin') && (
              <Button
                size="small"
                aria-label={`${row.pinned ? 'Unpin' : 'Pin'} the conflict of ${name}`}
                disabled={rowAction.isPending}
                onClick={() => act({ item: row, kind: 'change', change: { pinned: !row.pinned } })}
              >
                {row.pinned ? 'Unpin' : 'Pin'}
              </Button>
            )}
            {may(row, 'remove') && (
              <Button
                size="small"
                color="error"
                aria-label={`Remove the conflict of ${name}`}
                disabled={rowAction.isPending}
                onClick={() => act({ item: row, kind: 'remove' })}
              >
                Remove
              </Button>
            )}
          </Stack>
        );
      },
    },
  ];

  const total = page.counts.suggested + page.counts.confirmed + page.counts.dismissed;
  const proposalName =
    filters.proposal !== undefined
      ? (page.items.find((item) => item.proposalId === filters.proposal)?.proposalName ??
        'one proposal')
      : null;
  const filtered = Object.keys(filters).length > 0;

  return (
    <>
      <Stack
        direction="row"
        component="nav"
        aria-label="Filter by state"
        sx={{ gap: 1, flexWrap: 'wrap', mb: 2 }}
      >
        <StateChip
          label={`All (${total})`}
          active={filters.state === undefined}
          onClick={() => setFilter('state', null)}
        />
        {CONFLICT_STATES.map((state) => (
          <StateChip
            key={state}
            label={`${CONFLICT_STATE_LABELS[state]} (${page.counts[state]})`}
            active={filters.state === state}
            onClick={() => setFilter('state', state)}
          />
        ))}
        {proposalName !== null && (
          <Chip
            label={`Proposal: ${proposalName}`}
            onDelete={() => setFilter('proposal', null)}
            color="primary"
            variant="outlined"
          />
        )}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, maxWidth: 720 }}>
        <SelectInput
          name="type"
          label="Type"
          placeholder="All types"
          value={filters.type ?? ''}
          onChange={(event) => setFilter('type', event.target.value)}
          options={CONFLICT_TYPES.map((type) => ({
            value: type,
            label: CONFLICT_TYPE_LABELS[type],
          }))}
        />
        <SelectInput
          name="user"
          label="Member"
          placeholder="All members"
          value={filters.user !== undefined ? String(filters.user) : ''}
          onChange={(event) => setFilter('user', event.target.value)}
          options={page.members.map((member) => ({
            value: String(member.userId),
            label: member.name,
          }))}
        />
      </Stack>
      {page.undeclared > 0 && (
        <Typography sx={{ mb: 2 }}>{conflictScreenMessages.undeclared(page.undeclared)}</Typography>
      )}
      <ErrorList
        messages={[
          ...(rowAction.isError && !removal.open ? errorMessages(rowAction.error) : []),
          ...(bulk.isError ? errorMessages(bulk.error) : []),
        ]}
      />
      {refused.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }} onClose={() => setRefused([])}>
          {conflictScreenMessages.bulkRefused}
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {refused.map((item, index) => (
              <li key={index}>{`${item.name}: ${item.detail}`}</li>
            ))}
          </Box>
        </Alert>
      )}
      {page.total === 0 ? (
        <EmptyState>
          {filtered ? conflictScreenMessages.listNoMatch : conflictScreenMessages.listEmpty}
        </EmptyState>
      ) : (
        <>
          <Stack
            direction="row"
            role="toolbar"
            aria-label="Selected conflicts"
            sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}
          >
            <FormControlLabel
              control={
                <Checkbox
                  checked={allOnPage}
                  indeterminate={!allOnPage && selected.size > 0}
                  onChange={(event) =>
                    select(
                      event.target.checked ? new Set(page.items.map((item) => item.id)) : new Set(),
                    )
                  }
                />
              }
              label="Select all on this page"
            />
            <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
              {`${selected.size} selected`}
            </Typography>
            <Button
              variant="contained"
              disabled={selected.size === 0 || bulk.isPending}
              loading={bulk.isPending && bulk.variables?.state === 'confirmed'}
              onClick={() => {
                setRefused([]);
                rowAction.reset();
                bulk.mutate({ state: 'confirmed' });
              }}
            >
              Confirm Selected
            </Button>
            <Button
              variant="outlined"
              disabled={selected.size === 0 || bulk.isPending}
              onClick={() => {
                setRefused([]);
                rowAction.reset();
                bulk.reset();
                dismissal.ask(selected.size);
              }}
            >
              Dismiss Selected
            </Button>
          </Stack>
          <DataTable
            label={`Conflicts of interest of ${call.name}`}
            columns={columns}
            state={table}
            serverPage={page}
            rowKey={(row) => row.id}
          />
        </>
      )}
      <ConfirmDialog
        open={dismissal.open}
        title={
          dismissal.subject === 1
            ? 'Dismiss this conflict?'
            : `Dismiss ${dismissal.subject} conflicts?`
        }
        confirmLabel="Dismiss"
        pending={bulk.isPending}
        onCancel={dismissal.close}
        onConfirm={() => bulk.mutate({ state: 'dismissed' })}
      >
        {conflictScreenMessages.dismissConfirm(dismissal.subject ?? 0)}
      </ConfirmDialog>
      <ConfirmDialog
        open={removal.open}
        title="Remove this conflict?"
        confirmLabel="Remove"
        pending={rowAction.isPending}
        onCancel={() => {
          removal.close();
          rowAction.reset();
        }}
        onConfirm={() =>
          removal.subject && rowAction.mutate({ item: removal.subject, kind: 'remove' })
        }
      >
        {removal.subject
          ? conflictScreenMessages.removeConfirm(
              removal.subject.userName,
              removal.subject.proposalName,
            )
          : ''}
      </ConfirmDialog>
    </>
  );
}

/** A filter chip by state: a toggle button, pressed while its filter is on. */
function StateChip({
  label,
  active,
  onClick,
}: {
  label: string;
  active: boolean;
  onClick: () => void;
}) {
  return (
    <Chip
      label={label}
      onClick={onClick}
      color={active ? 'primary' : 'default'}
      variant={active ? 'filled' : 'outlined'}
      aria-pressed={active}
    />
  );
}

/** What matched, and the reason given, in words. */
function Evidence({ item }: { item: ConflictItem }) {
  const lines = item.evidence.map(evidenceText);
  if (item.reason) lines.push(`Reason: ${item.reason}`);
  if (lines.length === 0) return <Typography color="text.secondary">—</Typography>;
  return (
    <Box
      component="ul"
      sx={{ m: 0, pl: lines.length > 1 ? 2 : 0, listStyle: lines.length > 1 ? 'disc' : 'none' }}
    >
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </Box>
  );
}

/** What a row's action did, for the notification. */
function rowDone(action: RowAction): string {
  const name = conflictName(action.item);
  if (action.kind === 'remove') return `The conflict of ${name} has been removed.`;
  const { state, pinned } = action.change;
  if (state === 'confirmed') return `The conflict of ${name} has been confirmed.`;
  if (state === 'dismissed') return `The conflict of ${name} has been dismissed.`;
  return pinned
    ? `The conflict of ${name} has been pinned.`
    : `The conflict of ${name} has been unpinned.`;
}
