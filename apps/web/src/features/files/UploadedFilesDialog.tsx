import type { ProposalFile } from '@merit/contract';
import { formatBytes } from '@merit/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useLocalTableState } from '../../components/table/use-table-state';
import { formatCallDate } from '../calls/call-dates';
import { AttachmentUpload } from './AttachmentUpload';
import { DownloadFileButton } from './DownloadFileButton';
import { deleteProposalFile, refreshProposalFiles, useProposalFiles } from './files.api';

/** A form of the proposal, as far as naming its file fields goes. */
export interface FileForm {
  id: number;
  name: string;
  schema: { properties?: Record<string, unknown> };
}

/** What a file is for: the form and field it answers (`Documents: CV`), or an attachment. */
export function filePurpose(file: ProposalFile, forms: readonly FileForm[]): string {
  if (file.formId === null) return 'Attachment';
  const form = forms.find((candidate) => candidate.id === file.formId);
  const property = file.field ? form?.schema.properties?.[file.field] : undefined;
  const title =
    typeof property === 'object' && property !== null && 'title' in property
      ? String(property.title)
      : file.field;
  return [form?.name, title].filter(Boolean).join(': ') || 'A form';
}

interface UploadedFilesDialogProps {
  proposalId: number;
  /** The proposal type's forms, to say which field each file answers. */
  forms: readonly FileForm[];
  /** The caller may upload and delete now (the proposal's `abilities.edit` and the lock). */
  editable: boolean;
  open: boolean;
  onClose: () => void;
}

/**
 * Manage Uploaded Files (spec section 2): the proposal's files with their size, who
 * uploaded them and when, Download for everyone who sees the proposal, and, while it may
 * be changed, Delete (after a confirmation) and an upload area for other attachments.
 */
export function UploadedFilesDialog({
  proposalId,
  forms,
  editable,
  open,
  onClose,
}: UploadedFilesDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>Manage Uploaded Files</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          The PDFs uploaded to the forms’ file fields, and any other files attached to this
          proposal.
        </Typography>
        <FileTable proposalId={proposalId} forms={forms} editable={editable} />
        {editable && (
          <>
            <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
              Attach a file
            </Typography>
            <AttachmentUpload proposalId={proposalId} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function FileTable({
  proposalId,
  forms,
  editable,
}: {
  proposalId: number;
  forms: readonly FileForm[];
  editable: boolean;
}) {
  const files = useProposalFiles(proposalId);
  const deletion = useDeleteRow<ProposalFile>({
    remove: (file) => deleteProposalFile(proposalId, file.id),
    name: (file) => file.name,
    title: 'Delete this file?',
    message: (file) =>
      `“${file.name}” will be deleted. This cannot be undone. A form field that holds it ` +
      'will have no file until another is uploaded.',
    done: (file) => `“${file.name}” has been deleted.`,
    refresh: (client) => refreshProposalFiles(client, proposalId),
  });
  const columns: Column<ProposalFile>[] = [
    { key: 'name', header: 'Name', cell: (file) => file.name, sort: (file) => file.name },
    {
      key: 'for',
      header: 'For',
      cell: (file) => filePurpose(file, forms),
      sort: (file) => filePurpose(file, forms),
    },
    {
      key: 'size',
      header: 'Size',
      cell: (file) => formatBytes(file.size),
      sort: (file) => file.size,
      cellSx: { whiteSpace: 'nowrap' },
    },
    {
      key: 'uploadedBy',
      header: 'Uploaded by',
      cell: (file) => file.uploadedBy,
      sort: (file) => file.uploadedBy,
    },
    {
      key: 'uploaded',
      header: 'Uploaded',
      cell: (file) => formatCallDate(file.uploaded),
      sort: (file) => new Date(file.uploaded),
    },
    {
      key: 'download',
      header: 'Download',
      action: true,
      cell: (file) => <DownloadFileButton file={file} />,
    },
    ...(editable ? [deletion.column] : []),
  ];
  // The newest first: the file just uploaded is the one people look for.
  const table = useLocalTableState(columns, {
    defaultSort: { key: 'uploaded', direction: 'desc' },
  });

  if (files.isPending) return <LoadingView label="Loading the files…" />;
  if (files.isError)
    return <LoadFailedView error={files.error} onRetry={() => void files.refetch()} />;
  return (
    <>
      <ErrorList messages={deletion.errors} />
      {files.data.length === 0 ? (
        <EmptyState>
          {editable
            ? 'No files have been uploaded to this proposal yet. Upload a PDF in a form’s file field, or attach a file below.'
            : 'No files have been uploaded to this proposal.'}
        </EmptyState>
      ) : (
        <DataTable
          label="Uploaded files"
          columns={columns}
          state={table}
          rows={files.data}
          rowKey={(file) => file.id}
        />
      )}
      {deletion.dialog}
    </>
  );
}
