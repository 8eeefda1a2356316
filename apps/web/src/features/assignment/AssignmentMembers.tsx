import type { AssignmentMember, AssignmentOverview } from '@merit/contract';
import { MAX_CAP } from '@merit/domain';
import { Chip, Stack, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { refreshAssignment, saveAssignmentSettings } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { NumberField, parseWhole } from './NumberField';

interface CapChange {
  member: AssignmentMember;
  cap: number | null;
}

interface AssignmentMembersProps {
  callId: number;
  overview: AssignmentOverview;
  canChange: boolean;
}

/**
 * The committee's current members with their load and cap. The chair's cap is typed in
 * the row (empty: the default, shown greyed), and saved as the field is left.
 */
export function AssignmentMembers({ callId, overview, canChange }: AssignmentMembersProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const saveCap = useMutation({
    mutationFn: ({ member, cap }: CapChange) =>
      saveAssignmentSettings(callId, { caps: { [member.userId]: cap } }),
    onSuccess: async (_settings, { member, cap }) => {
      notify(assignmentTexts.capSaved(member.name, cap));
      await refreshAssignment(queryClient, callId);
    },
  });

  const columns: Column<AssignmentMember>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: (row) => row.name,
      cell: (row) => (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          {row.name}
          {!row.eligible && (
            <Tooltip title={assignmentTexts.notAvailableTooltip} describeChild>
              <Chip size="small" label={assignmentTexts.notAvailable} tabIndex={0} />
            </Tooltip>
          )}
        </Stack>
      ),
    },
    { key: 'role', header: 'Role', cell: (row) => (row.role === 'CHAIR' ? 'Chair' : 'Member') },
    { key: 'load', header: 'Load', sort: (row) => row.load, cell: (row) => row.load },
    {
      key: 'cap',
      header: 'Cap',
      sort: (row) => row.cap,
      cell: (row) => (
        <CapInput
          // Starts again from the saved cap whenever it changes.
          key={row.chairCap ?? 'default'}
          member={row}
          defaultCap={overview.defaultCap}
          disabled={!canChange}
          onSave={(cap) => {
            saveCap.reset();
            saveCap.mutate({ member: row, cap });
          }}
        />
      ),
    },
    {
      key: 'memberCap',
      header: 'Their own cap',
      cell: (row) => (row.memberCap === null ? '—' : row.memberCap),
    },
    { key: 'bids', header: 'Bids', sort: (row) => row.bids, cell: (row) => row.bids },
  ];
  const table = useTableState(columns, {
    defaultSort: { key: 'name', direction: 'asc' },
    prefix: 'members',
  });

  if (overview.members.length === 0) return <EmptyState>{assignmentTexts.membersEmpty}</EmptyState>;
  return (
    <>
      <ErrorList
        messages={
          saveCap.isError
            ? errorMessages(saveCap.error).map(
                (message) => `${saveCap.variables?.member.name ?? ''}: ${message}`,
              )
            : []
        }
      />
      <DataTable
        label="Members"
        columns={columns}
        state={table}
        rows={overview.members}
        rowKey={(row) => row.userId}
      />
    </>
  );
}

interface CapInputProps {
  member: AssignmentMember;
  defaultCap: number;
  disabled: boolean;
  onSave: (cap: number | null) => void;
}

/** The chair's cap of one member, saved on leaving the field or on Enter when it changed. */
function CapInput({ member, defaultCap, disabled, onSave }: CapInputProps) {
  const [text, setText] = useState(member.chairCap === null ? '' : String(member.chairCap));
  // What was last sent: Enter and then leaving the field send it once.
  const [sent, setSent] = useState(member.chairCap);
  const cap = parseWhole(text);
  const valid = cap !== undefined && (cap === null || cap <= MAX_CAP);
  const commit = () => {
    if (!valid || cap === sent) return;
    setSent(cap);
    onSave(cap);
  };
  return (
    <NumberField
      inline
      name={`cap-${member.userId}`}
      label={`Cap of ${member.name}`}
      value={text}
      onChange={setText}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      placeholder={String(defaultCap)}
      max={MAX_CAP}
      error={!valid}
      disabled={disabled}
    />
  );
}
