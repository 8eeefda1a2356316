import DownloadIcon from '@mui/icons-material/Download';
import { Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { csvBlob } from '../files/csv';
import { saveBlob } from '../files/downloads';
import {
  activityFileName,
  downloadActivityCsv,
  useActivity,
  type ActivityScope,
} from './activity.api';
import { ActivityFilters, useActivityFilters } from './ActivityFilters';
import { ActivityTable } from './ActivityTable';

/** Counts as the reader writes numbers: 10,000 rather than 10000. */
const counting = new Intl.NumberFormat();

interface ActivityViewProps {
  scope: ActivityScope;
  /** Names the table for screen readers. */
  label: string;
  /** Above the heading: the way back to the call. */
  backLink?: ReactNode;
  /** A call's activity: the proposal filter and column. */
  forCall?: boolean;
}

/**
 * An Activity page below its guard (a call's for its chairs, the whole system's for
 * administrators): the filters, the matching rows a page at a time, and the whole filter
 * as CSV.
 */
export function ActivityView({ scope, label, backLink, forCall = false }: ActivityViewProps) {
  const { filters, table, page, setFilter, clear } = useActivityFilters();
  const activity = useActivity(scope, filters, page);
  const download = useMutation({
    mutationFn: () => downloadActivityCsv(scope, filters),
    onSuccess: (csv) => saveBlob(csvBlob(csv), activityFileName(scope)),
  });

  if (isApiError(activity.error, 403)) return <AccessDeniedView />;

  let content;
  if (activity.isPending) content = <LoadingView label="Loading the activity…" />;
  else if (activity.isError)
    content = <LoadFailedView error={activity.error} onRetry={() => void activity.refetch()} />;
  else if (activity.data.total === 0)
    content = (
      <EmptyState>
        {Object.keys(filters).length > 0
          ? 'Nothing matches these filters.'
          : 'Nothing has been recorded here yet.'}
      </EmptyState>
    );
  else
    content = (
      <>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {activity.data.total === 1
            ? '1 entry, newest first'
            : `${counting.format(activity.data.total)} entries, newest first`}
        </Typography>
        <ActivityTable
          label={label}
          page={activity.data}
          state={table}
          showProposal={forCall || scope === 'all'}
          showRequest={scope === 'all'}
        />
      </>
    );

  return (
    <>
      {backLink}
      <PageHeading
        actions={
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            Download CSV
          </Button>
        }
      >
        Activity
      </PageHeading>
      <ActivityFilters
        filters={filters}
        setFilter={setFilter}
        clear={clear}
        options={activity.data}
        showProposal={forCall}
      />
      <ErrorList messages={download.isError ? errorMessages(download.error) : []} />
      {content}
    </>
  );
}
