import { formatBytes, MAX_UPLOAD_BYTES } from '@merit/domain';
import InsertDriveFileIcon from '@mui/icons-material/InsertDriveFile';
import { Box, FormHelperText, FormLabel, Stack, Typography } from '@mui/material';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useEffect, type ReactNode } from 'react';
import { DownloadFileButton } from './DownloadFileButton';
import { fileFieldContext, type FileFieldContext } from './file-field-context';
import { FileChooserButton } from './FileChooserButton';
import { fileNotShownText, useProposalFiles } from './files.api';
import { PDF_TYPES } from './uploader';
import { UploadProgress } from './UploadProgress';
import { useUpload } from './use-upload';

const HINT = `A PDF of at most ${formatBytes(MAX_UPLOAD_BYTES)}.`;

/**
 * A form's file field (`format: "data-url"` or `"ui:widget": "file"`; spec section 3):
 * its value is the id of a file uploaded to the proposal, so the field uploads the file
 * (resumably, see uploader.ts) and then holds its id. It shows the file's name with
 * Download and Replace, or only the name and Download where the form is read-only.
 */
export function FileFieldWidget(props: WidgetProps) {
  const { id, label, hideLabel, registry, rawErrors = [] } = props;
  const context = fileFieldContext(registry.formContext);
  const labelId = `${id}-label`;
  return (
    <Box
      id={id}
      role="group"
      aria-labelledby={hideLabel ? undefined : labelId}
      aria-describedby={ariaDescribedByIds(id)}
      sx={{ my: 1 }}
    >
      {!hideLabel && (
        <FormLabel id={labelId} required={props.required} error={rawErrors.length > 0}>
          {label}
        </FormLabel>
      )}
      {context ? (
        <ProposalFileField {...props} context={context} />
      ) : (
        // The form builder's preview: there is no proposal to attach a file to.
        <FieldRow hint="Authors upload a PDF here in the proposal editor.">
          <FileChooserButton disabled onChoose={() => undefined}>
            Upload PDF
          </FileChooserButton>
        </FieldRow>
      )}
    </Box>
  );
}

function FieldRow({ children, hint }: { children: ReactNode; hint?: string }) {
  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {children}
      </Stack>
      {hint && <FormHelperText>{hint}</FormHelperText>}
    </>
  );
}

function ProposalFileField({
  id,
  name,
  value,
  readonly,
  disabled,
  onChange,
  context,
}: WidgetProps & { context: FileFieldContext }) {
  const { proposalId, formId } = context;
  const files = useProposalFiles(proposalId);
  // One uploader per field of each entry (`id` holds the entry), kept by the page.
  const upload = useUpload(`${proposalId}:${id}`, { proposalId, field: { formId, name } });
  const editable = !readonly && !disabled;

  const { finished, take } = upload;
  useEffect(() => {
    // A form that has turned read-only (the lock went) takes the file when it is back.
    if (finished.length === 0 || !editable) return;
    const latest = take().at(-1);
    if (latest) onChange(String(latest.id));
  }, [finished, editable, take, onChange]);

  const fileId = typeof value === 'string' && value !== '' ? value : null;
  const file = fileId === null ? null : files.data?.find((item) => String(item.id) === fileId);
  const choose = (label: string) =>
    editable && (
      <FileChooserButton
        accept={PDF_TYPES.join(',')}
        disabled={upload.current !== null}
        onChoose={upload.start}
      >
        {label}
      </FileChooserButton>
    );

  let shown: ReactNode;
  if (fileId === null) {
    shown = editable ? (
      choose('Upload PDF')
    ) : (
      <Typography color="text.secondary">No file uploaded.</Typography>
    );
  } else if (file) {
    shown = (
      <>
        <InsertDriveFileIcon color="action" aria-hidden />
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {file.name}{' '}
          <Typography component="span" color="text.secondary">
            ({formatBytes(file.size)})
          </Typography>
        </Typography>
        <DownloadFileButton file={file} />
        {choose('Replace')}
      </>
    );
  } else {
    shown = (
      <>
        <Typography color="text.secondary">{fileNotShownText(files)}</Typography>
        {!files.isPending && choose('Upload PDF')}
      </>
    );
  }

  return (
    <>
      <FieldRow hint={editable ? HINT : undefined}>{shown}</FieldRow>
      {upload.current && <UploadProgress {...upload.current} />}
    </>
  );
}
