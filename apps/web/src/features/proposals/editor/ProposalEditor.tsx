import type { ProposalDetail } from '@merit/contract';
import { formatScore, proposalMessages, RESULT_SCORE } from '@merit/domain';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Button,
  Chip,
  FormControlLabel,
  Link,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { errorMessages } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorList } from '../../../components/ErrorList';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeading } from '../../../components/PageHeading';
import { SearchParamTabs, useSearchParamTab } from '../../../components/SearchParamTabs';
import { useConfirm } from '../../../components/use-confirm';
import { useCurrentUser } from '../../auth/session-hooks';
import { formatCallDate } from '../../calls/call-dates';
import { PdfStatus } from '../../files/PdfStatus';
import { UploadedFilesDialog } from '../../files/UploadedFilesDialog';
import { useProposalPdf } from '../../files/use-proposal-pdf';
import { newReviewPath, reviewListPath, reviewPath } from '../../reviews/review-paths';
import { ReviewersDialog } from '../../reviews/ReviewersDialog';
import { useOwnReviewId } from '../../reviews/reviews.api';
import {
  changeProposalState,
  deleteEntry,
  deleteProposal,
  proposalKeys,
  refreshProposals,
} from '../proposals.api';
import { DecisionSummaryPanel } from '../decision/DecisionSummaryPanel';
import { ChangeMarks } from './ChangeMarks';
import { CollaboratorsDialog } from './CollaboratorsDialog';
import { hasFormErrors, isFormDirty, type EditorForm } from './editor-state';
import { FormPanel } from './FormPanel';
import { ProposalManageMenu, type ProposalAction } from './ProposalManageMenu';
import { ProposalNameForm } from './ProposalNameForm';
import { useLeavePrompt } from './use-leave-prompt';
import { useProposalDrafts } from './use-proposal-drafts';
import { useProposalLock } from './use-proposal-lock';
import { useSaveForms } from './use-save-forms';

type StateAction = Extract<ProposalAction, 'submit' | 'retract' | 'delete'>;

interface ProposalEditorProps {
  proposal: ProposalDetail;
  /** The forms of the proposal's type, in the call's order: at least one (spec section 5, Call). */
  forms: readonly EditorForm[];
}

/**
 * The proposal editor (spec section 2): the header with the name, the state, who holds
 * the lock and the Manage menu, then one tab per form. Who may change what is the
 * server's to say (`abilities`), and the lock's: someone else holding it makes the
 * answers read-only until they leave.
 */
export function ProposalEditor({ proposal, forms }: ProposalEditorProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { abilities } = proposal;

  const { lock, restart, refresh } = useProposalLock(proposal.id, abilities.lock);
  const holder = lock ?? proposal.lockHolder;
  const heldBy = holder?.holderId != null && holder.holderId !== user.id ? holder.holder : null;
  // Until the lock's first answer, the proposal's own abilities say; then the lock does.
  const canEdit = lock ? abilities.lock && heldBy === null : abilities.edit;
  useReloadWhenLockReturns(proposal.id, heldBy);

  const { drafts, dispatch, latest } = useProposalDrafts(proposal.responses, forms);
  const [validate, setValidate] = useState(true);
  const tabs = forms.map((form) => ({
    value: String(form.id),
    label: (
      <span>
        {form.name}
        <ChangeMarks
          unsaved={isFormDirty(drafts[form.id]!)}
          errors={hasFormErrors(drafts[form.id]!)}
        />
      </span>
    ),
  }));
  const [tab, setTab] = useSearchParamTab(tabs);
  const current = forms.find((form) => String(form.id) === tab)!;

  const saving = useSaveForms({
    proposal,
    forms,
    latest,
    dispatch,
    validate,
    onRefused: (formId) => setTab(String(formId)),
    onSettled: restart,
    onLocked: refresh,
  });

  const unsavedForms = forms.filter((form) => isFormDirty(drafts[form.id]!));
  const leave = useLeavePrompt(unsavedForms.length > 0);
  useSaveShortcut(canEdit ? () => void saving.saveForm(current) : null);

  const entryToDelete = useConfirm<{ form: EditorForm; key: number }>();
  const entryDeletion = useMutation({
    mutationFn: async ({ form, key }: { form: EditorForm; key: number }) => {
      const entries = latest.current[form.id]?.entries ?? [];
      const index = entries.findIndex((item) => item.key === key);
      // An entry added since the last save is only on this page.
      if (entries[index]?.stored) {
        await deleteEntry({
          callId: proposal.callId,
          proposalId: proposal.id,
          formId: form.id,
          formIndex: index,
        });
      }
    },
    onSuccess: (_result, { form, key }) => {
      dispatch({ type: 'remove', formId: form.id, key });
      notify('The entry has been deleted.');
      void refreshProposals(queryClient);
    },
    onSettled: () => entryToDelete.close(),
  });

  const [collaboratorsOpen, setCollaboratorsOpen] = useState(false);
  const [reviewersOpen, setReviewersOpen] = useState(false);
  const ownReviewId = useOwnReviewId(proposal, user.id);
  const [filesOpen, setFilesOpen] = useState(false);
  const pdf = useProposalPdf();
  const stateConfirm = useConfirm<StateAction>();
  const stateChange = useMutation({
    mutationFn: (action: StateAction) =>
      action === 'delete'
        ? deleteProposal(proposal.id)
        : changeProposalState(proposal.id, action === 'submit' ? 1 : 0),
    onSuccess: async (changed, action) => {
      if (action === 'delete') {
        leave.allowLeaving();
        notify('The proposal has been deleted.');
        await navigate(`/calls/${proposal.callId}/proposals/`, { replace: true });
        queryClient.removeQueries({ queryKey: proposalKeys.detail(proposal.id) });
      } else {
        if (changed) queryClient.setQueryData(proposalKeys.detail(proposal.id), changed);
        notify(
          action === 'submit'
            ? 'The proposal has been submitted.'
            : 'The proposal has been retracted: it is a draft again.',
        );
      }
      await refreshProposals(queryClient);
    },
    onSettled: () => stateConfirm.close(),
  });

  const lockFree = heldBy === null;
  // Whoever sees the proposal may save its PDF and see (and download) its files.
  const actions: ProposalAction[] = ['pdf'];
  if (abilities.review) actions.push(ownReviewId === null ? 'addReview' : 'editReview');
  if (abilities.viewReviews) actions.push('viewReviews');
  if (abilities.manageCollaborators) actions.push('collaborators');
  if (abilities.manageReviewers) actions.push('reviewers');
  actions.push('files');
  const links = {
    addReview: newReviewPath(proposal.callId, proposal.id),
    editReview:
      ownReviewId === null ? undefined : reviewPath(proposal.callId, proposal.id, ownReviewId),
    viewReviews: reviewListPath(proposal.callId, proposal.id),
  };
  if (abilities.submit && lockFree) actions.push('submit');
  if (abilities.retract && lockFree) actions.push('retract');
  if (abilities.delete && lockFree) actions.push('delete');

  // Forms are named in a refused submit's list: its `fields` are keyed by form id.
  const formLabels = Object.fromEntries(forms.map((form) => [String(form.id), form.name]));
  const problems = [
    ...(saving.error ? errorMessages(saving.error) : []),
    ...(entryDeletion.isError ? errorMessages(entryDeletion.error) : []),
    ...(stateChange.isError ? errorMessages(stateChange.error, formLabels) : []),
  ];

  return (
    <>
      <BackLink to={`/calls/${proposal.callId}/proposals/`}>Proposals</BackLink>
      <PageHeading
        actions={
          <ProposalManageMenu
            actions={actions}
            links={links}
            onSelect={(action) => {
              if (action === 'pdf') return pdf.save(proposal);
              if (action === 'collaborators') return setCollaboratorsOpen(true);
              if (action === 'reviewers') return setReviewersOpen(true);
              if (action === 'files') return setFilesOpen(true);
              if (action === 'submit' || action === 'retract' || action === 'delete') {
                stateChange.reset();
                stateConfirm.ask(action);
              }
            }}
          />
        }
      >
        {proposal.proposalName}
      </PageHeading>
      <Stack
        direction="row"
        sx={{ mb: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
        aria-label="About this proposal"
        component="section"
      >
        <Chip label={proposal.state} color={proposal.stateVal > 0 ? 'primary' : 'default'} />
        {heldBy !== null && (
          <Chip
            icon={<LockIcon color="warning" />}
            label={`Locked by ${heldBy}`}
            variant="outlined"
          />
        )}
        <Typography variant="body2" color="text.secondary">
          {proposal.proposalTypeName} ·{' '}
          <Link component={RouterLink} to={`/calls/${proposal.callId}/`} color="inherit">
            {proposal.callName}
          </Link>{' '}
          · by {proposal.author}
          {proposal.collaborators.length > 0 &&
            ` with ${proposal.collaborators.map((person) => person.name).join(', ')}`}{' '}
          · last saved {formatCallDate(proposal.lastModified)}
        </Typography>
        {/* Only those who may see its reviews get these: never its authors (issue 13). */}
        {proposal.reviewers !== undefined && (
          <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
            {proposal.reviewers.length > 0
              ? `Reviewers: ${proposal.reviewers.map((person) => person.name).join(', ')}`
              : 'No reviewers assigned'}
            {proposal.reviewScores !== undefined &&
              ` · Review score: ${formatScore(
                proposal.reviewScores.find((score) => score.name === RESULT_SCORE)?.value,
              )}`}
          </Typography>
        )}
      </Stack>
      <PdfStatus progress={pdf.progress} />
      {canEdit && <ProposalNameForm key={proposal.proposalName} proposal={proposal} />}
      {heldBy !== null && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {proposalMessages.locked(heldBy)}
        </Alert>
      )}
      {heldBy === null && proposal.stateVal > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {proposalMessages.submitted}
        </Alert>
      )}
      <ErrorList messages={problems} />
      {canEdit && (
        <FormControlLabel
          control={
            <Switch checked={validate} onChange={(event) => setValidate(event.target.checked)} />
          }
          label="Check answers when saving"
          sx={{ mb: 1 }}
        />
      )}
      <SearchParamTabs label="Forms of this proposal" tabs={tabs}>
        {() => (
          <FormPanel
            key={current.id}
            proposalId={proposal.id}
            form={current}
            draft={drafts[current.id]!}
            readOnly={!canEdit}
            onChange={(key, answers) =>
              dispatch({ type: 'change', form: current, key, answers, validate })
            }
            onAdd={() => dispatch({ type: 'add', form: current })}
            onDelete={(key) => {
              entryDeletion.reset();
              entryToDelete.ask({ form: current, key });
            }}
            onSave={() => void saving.saveForm(current)}
            actions={
              <>
                <Button
                  variant="contained"
                  loading={saving.saving === 'form'}
                  disabled={saving.saving !== null}
                  onClick={() => void saving.saveForm(current)}
                >
                  Save
                </Button>
                <Button
                  variant="outlined"
                  loading={saving.saving === 'all'}
                  disabled={saving.saving !== null}
                  onClick={() => void saving.saveAll()}
                >
                  Save All
                </Button>
              </>
            }
          />
        )}
      </SearchParamTabs>
      <DecisionSummaryPanel proposal={proposal} />

      <ConfirmDialog
        open={entryToDelete.open}
        title="Delete this entry?"
        confirmLabel="Delete"
        onConfirm={() => entryToDelete.subject && entryDeletion.mutate(entryToDelete.subject)}
        onCancel={entryToDelete.close}
        pending={entryDeletion.isPending}
      >
        {proposalMessages.deleteEntryConfirm}
      </ConfirmDialog>
      <ConfirmDialog
        open={stateConfirm.open}
        title={STATE_DIALOGS[stateConfirm.subject ?? 'submit'].title}
        confirmLabel={STATE_DIALOGS[stateConfirm.subject ?? 'submit'].confirm}
        onConfirm={() => stateConfirm.subject && stateChange.mutate(stateConfirm.subject)}
        onCancel={stateConfirm.close}
        pending={stateChange.isPending}
      >
        {STATE_DIALOGS[stateConfirm.subject ?? 'submit'].message(proposal.proposalName)}
        {stateConfirm.subject === 'submit' &&
          unsavedForms.length > 0 &&
          ` Unsaved changes to ${unsavedForms.map((form) => form.name).join(', ')} would not be part of it: save them first.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={leave.blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        onConfirm={() => leave.blocker.proceed?.()}
        onCancel={() => leave.blocker.reset?.()}
      >
        {`Your changes to ${unsavedForms.map((form) => form.name).join(', ')} are not saved. If you leave now, they are lost.`}
      </ConfirmDialog>
      <UploadedFilesDialog
        proposalId={proposal.id}
        forms={forms}
        editable={canEdit}
        open={filesOpen}
        onClose={() => setFilesOpen(false)}
      />
      {abilities.manageReviewers && (
        <ReviewersDialog
          proposal={proposal}
          open={reviewersOpen}
          onClose={() => setReviewersOpen(false)}
        />
      )}
      {abilities.manageCollaborators && (
        <CollaboratorsDialog
          proposal={proposal}
          open={collaboratorsOpen}
          onClose={() => setCollaboratorsOpen(false)}
        />
      )}
    </>
  );
}

const STATE_DIALOGS: Record<
  StateAction,
  { title: string; confirm: string; message: (name: string) => string }
> = {
  submit: {
    title: 'Submit this proposal?',
    confirm: 'Submit Proposal',
    message: (name) =>
      `Once “${name}” is submitted, nobody can change it unless you retract it while the call is open.`,
  },
  retract: {
    title: 'Retract this proposal?',
    confirm: 'Retract Proposal',
    message: (name) =>
      `“${name}” becomes a draft again, which you and your collaborators can change. Submit it again before the deadline, or it will not be considered.`,
  },
  delete: {
    title: 'Delete this proposal?',
    confirm: 'Delete Proposal',
    message: (name) => `“${name}” and all its answers will be deleted. This cannot be undone.`,
  },
};

/**
 * When the lock comes back from someone else, they may have saved answers: load the
 * proposal again before anyone edits what they replaced.
 */
function useReloadWhenLockReturns(proposalId: number, heldBy: string | null) {
  const queryClient = useQueryClient();
  const previous = useRef(heldBy);
  useEffect(() => {
    if (previous.current !== null && heldBy === null) {
      void queryClient.invalidateQueries({ queryKey: proposalKeys.detail(proposalId) });
    }
    previous.current = heldBy;
  }, [heldBy, proposalId, queryClient]);
}

/** Ctrl+S (Cmd+S on a Mac) runs `save` instead of the browser's Save Page, while there is one. */
function useSaveShortcut(save: (() => void) | null) {
  const latest = useRef(save);
  useEffect(() => {
    latest.current = save;
  }, [save]);
  const active = save !== null;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's')
        return;
      event.preventDefault();
      latest.current?.();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);
}
