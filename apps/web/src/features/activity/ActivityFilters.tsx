import type { ActivityPage } from '@merit/contract';
import { Box, Button } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateInput } from '../../components/form/DateInput';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useTableState } from '../../components/table/use-table-state';
import { idOf } from '../../components/use-id-param';
import {
  ACTIVITY_FILTERS,
  isBackwards,
  readActivityFilters,
  type ActivityFilterKey,
  type ActivityFilters as Filters,
} from './activity-query';

/** How long typing a proposal's number must pause before the list is asked for again. */
const PROPOSAL_DELAY_MS = 400;

/**
 * The filters and page of an Activity list, kept in the address so that a filtered view
 * can be reloaded or sent to someone. Any change of filter starts from the first page.
 */
export function useActivityFilters() {
  const [params, setParams] = useSearchParams();
  // Newest first, always: the server sorts, and no column offers another order.
  const table = useTableState([], { defaultSort: { key: 'at', direction: 'desc' } });
  const filters = readActivityFilters(params);
  const change = (edit: (next: URLSearchParams) => void) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      edit(next);
      next.delete(table.keys.page);
      return next;
    });
  return {
    filters,
    table,
    page: { page: table.page + 1, pageSize: table.pageSize },
    /** Sets one filter; empty or null removes it. */
    setFilter: (key: ActivityFilterKey, value: string | null) =>
      change((next) => {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }),
    clear: () => change((next) => ACTIVITY_FILTERS.forEach((key) => next.delete(key))),
  };
}

interface ActivityFiltersProps {
  filters: Filters;
  setFilter: (key: ActivityFilterKey, value: string | null) => void;
  clear: () => void;
  /** The people and actions the menus offer, from the last page the server sent. */
  options: Pick<ActivityPage, 'people' | 'actions'> | undefined;
  /** A call's activity filters by proposal too (its number). */
  showProposal?: boolean;
}

/** Person, action, proposal and the days from and to (UTC): the filters of an Activity page. */
export function ActivityFilters({
  filters,
  setFilter,
  clear,
  options,
  showProposal = false,
}: ActivityFiltersProps) {
  const people = (options?.people ?? []).map((person) => ({
    value: String(person.id),
    label: person.name,
  }));
  const actions = (options?.actions ?? []).map(({ action, label }) => ({ value: action, label }));
  // A filter the address sets keeps its choice in the menu, named as well as it can be.
  if (filters.user !== undefined && !people.some(({ value }) => value === String(filters.user)))
    people.push({ value: String(filters.user), label: `Person ${filters.user}` });
  if (filters.action !== undefined && !actions.some(({ value }) => value === filters.action))
    actions.push({ value: filters.action, label: filters.action });

  const any = Object.keys(filters).length > 0;
  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter the activity"
      onSubmit={(event) => event.preventDefault()}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
        gap: 2,
        mb: 2,
        alignItems: 'start',
      }}
    >
      <SelectInput
        name="user"
        label="Person"
        placeholder="Everyone"
        value={filters.user !== undefined ? String(filters.user) : ''}
        onChange={(event) => setFilter('user', event.target.value)}
        options={people}
      />
      <SelectInput
        name="action"
        label="Action"
        placeholder="All actions"
        value={filters.action ?? ''}
        onChange={(event) => setFilter('action', event.target.value)}
        options={actions}
      />
      {showProposal && (
        <ProposalField
          value={filters.proposal !== undefined ? String(filters.proposal) : ''}
          onChange={(value) => setFilter('proposal', value)}
        />
      )}
      <DateInput
        name="from"
        label="From (UTC)"
        value={filters.from ?? ''}
        onChange={(event) => setFilter('from', event.target.value)}
      />
      <DateInput
        name="to"
        label="To (UTC)"
        value={filters.to ?? ''}
        onChange={(event) => setFilter('to', event.target.value)}
        error={isBackwards(filters)}
        helperText={isBackwards(filters) ? 'The last day comes before the first.' : undefined}
      />
      {any && (
        <Box sx={{ alignSelf: 'center' }}>
          <Button onClick={clear}>Clear Filters</Button>
        </Box>
      )}
    </Box>
  );
}

/**
 * The proposal's number, sent once typing pauses: each digit would otherwise ask the
 * server for another list. A value changed from elsewhere (Clear Filters, Back) replaces
 * what the field shows.
 */
function ProposalField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  });
  const typed = text.trim();
  const valid = typed === '' || idOf(typed) !== null;
  useEffect(() => {
    if (typed === value || !valid) return;
    const timer = setTimeout(() => report.current(typed), PROPOSAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, value, valid]);
  return (
    <TextInput
      name="proposal"
      label="Proposal ID"
      value={text}
      inputMode="numeric"
      onChange={(event) => setText(event.target.value)}
      error={!valid}
      helperText={valid ? undefined : 'Enter the proposal’s number, such as 30.'}
    />
  );
}
