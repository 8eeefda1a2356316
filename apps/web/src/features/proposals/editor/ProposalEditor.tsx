import type { ProposalDetail } from '@merit/contract';
import {
  draftMessages,
  editingMessages,
  formatScore,
  proposalMessages,
  RESULT_SCORE,
  submissionStandingMessage,
} from '@merit/domain';
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
import { ApiError, errorMessages, isApiError } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorList } from '../../../components/ErrorList';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeading } from '../../../components/PageHeading';
import { SearchParamTabs, useSearchParamTab } from '../../../components/SearchParamTabs';
import { useConfirm } from '../../../components/use-confirm';
import { ProposalHistory } from '../../activity/ProposalHistory';
import { useCurrentUser } from '../../auth/session-hooks';
import { ConflictsPanel } from '../../conflicts/ConflictsPanel';
import { formatCallDate } from '../../calls/call-dates';
import { answerChanges, answersText } from '../../drafts/answer-changes';
import { ConflictChoiceDialog, type Conflict } from '../../drafts/ConflictChoiceDialog';
import { atLocalTime } from '../../drafts/draft-time';
import { DraftOfferBanner } from '../../drafts/DraftOfferBanner';
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
import { ProposalDecisionPanel } from '../../decisions/ProposalDecisionPanel';
import { ChangeMarks } from './ChangeMarks';
import { CollaboratorsDialog } from './CollaboratorsDialog';
import {
  hasFormErrors,
  isFormDirty,
  type DraftAction,
  type DraftState,
  type EditorForm,
} from './editor-state';
import { FormPanel } from './FormPanel';
import { ProposalManageMenu, type ProposalAction } from './ProposalManageMenu';
import { ProposalNameForm } from './ProposalNameForm';
import { useLeavePrompt } from './use-leave-prompt';
import { useLocalAnswers } from './use-local-answers';
import { useProposalDrafts } from './use-proposal-drafts';
import { useProposalLock, type LockView } from './use-proposal-lock';
import { useSaveForms } from './use-save-forms';

type StateAction = Extract<ProposalAction, 'submit' | 'retract' | 'delete'>;

/** The value of the History tab in the address (`?tab=history`). */
const HISTORY_TAB = 'history';

interface ProposalEditorProps {
  proposal: ProposalDetail;
  /** The forms of the proposal's type, in the call's order: at least one (spec section 5, Call). */
  forms: readonly EditorForm[];
}

/**
 * The proposal editor (spec section 2): the header with the name, the state, who holds
 * the lock and the Manage menu, then one tab per form. Who may change what is the
 * server's to say (`abilities`), and the lock's: the answers can be changed only while
 * this tab holds it, and otherwise the editor says why. Answers someone else saved
 * meanwhile are never written over or dropped in silence: the person chooses (conflicts),
 * and unsaved answers are kept in this browser until the server has them (local drafts).
 */
export function ProposalEditor({ proposal, forms }: ProposalEditorProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { abilities } = proposal;

  const lock = useProposalLock(proposal.id, abilities.lock);
  const heldBy = otherHolder(lock.view, proposal, user.id);
  const reloading = useReloadWhenLockReturns(proposal.id, lock.view.status);

  const { drafts, dispatch, latest } = useProposalDrafts(
    proposal.responses,
    forms,
    proposal.entries,
  );
  const local = useLocalAnswers({
    userId: user.id,
    proposalId: proposal.id,
    forms,
    drafts,
    dispatch,
    entries: proposal.entries,
    enabled: abilities.lock,
  });
  // Editable only while this tab holds the lock, what was saved meanwhile has loaded, and
  // answers kept from an earlier visit have been restored or discarded.
  const canEdit =
    abilities.lock &&
    lock.view.status === 'mine' &&
    !reloading &&
    local.checked &&
    local.offer === null;

  const [validate, setValidate] = useState(true);
  // Forms saved with their answers checked since the last submit: a refused submit's list
  // no longer names them.
  const [fixedForms, setFixedForms] = useState<ReadonlySet<number>>(new Set());
  const tabs = [
    ...forms.map((form) => ({
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
    })),
    // After the forms, for those who may read it (issue 28); a form's id is never `history`.
    ...(abilities.viewHistory ? [{ value: HISTORY_TAB, label: 'History' }] : []),
  ];
  const [tab, setTab] = useSearchParamTab(tabs);
  // The form in view; none on the History tab.
  const current = forms.find((form) => String(form.id) === tab);

  const saving = useSaveForms({
    proposal,
    forms,
    latest,
    dispatch,
    validate,
    onRefused: (formId) => setTab(String(formId)),
    onSettled: lock.restart,
    onLocked: lock.refuse,
    onSaved: (formId, checked) => {
      if (checked) setFixedForms((fixed) => new Set(fixed).add(formId));
    },
  });

  const unsavedForms = forms.filter((form) => isFormDirty(drafts[form.id]!));
  const leave = useLeavePrompt(unsavedForms.length > 0);
  useSaveShortcut(canEdit && current ? () => void saving.saveForm(current) : null);

  const conflicts = useConflictChoices({ forms, drafts, dispatch, save: saving.saveForm });

  const entryToDelete = useConfirm<{ form: EditorForm; key: number }>();
  const entryDeletion = useMutation({
    mutationFn: async ({ form, key }: { form: EditorForm; key: number }) => {
      const entries = latest.current[form.id]?.entries ?? [];
      const item = entries.find((candidate) => candidate.key === key);
      // An entry added since the last save is only on this page.
      if (item?.stored && item.entryId !== null) {
        // Its position among the saved entries: the server holds it to the id.
        const saved = entries.filter(
          (candidate) => candidate.stored && candidate.conflict?.theirs !== null,
        );
        await deleteEntry({
          callId: proposal.callId,
          proposalId: proposal.id,
          formId: form.id,
          entryId: item.entryId,
          formIndex: saved.indexOf(item),
        });
      }
    },
    onSuccess: (_result, { form, key }) => {
      // In one render with the entry's removal: the closing dialog then gives the focus
      // back to no button, and the form panel moves it to a neighbouring entry.
      entryToDelete.close();
      dispatch({ type: 'remove', formId: form.id, key });
      notify('The entry has been deleted.');
    },
    // Refused as stale too: the entries load again as the server holds them now.
    onSettled: () => {
      entryToDelete.close();
      void refreshProposals(queryClient);
    },
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

  // Submitting, retracting and deleting wait for another editor of it to leave.
  const lockFree =
    heldBy === null && !(lock.view.status === 'notMine' && lock.view.lock.reason === 'otherTab');
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

  // Why it cannot be changed, as its state and its deadline say: never a Retract that the
  // Manage menu no longer offers, and a draft past its deadline says so.
  const standing = proposal.submission
    ? submissionStandingMessage(proposal.stateVal, proposal.submission, (at) =>
        formatCallDate(at.toISOString()),
      )
    : proposal.stateVal > 0
      ? proposalMessages.submitted
      : null;

  // Forms are named in a refused submit's list: its `fields` are keyed by form id.
  const formLabels = Object.fromEntries(forms.map((form) => [String(form.id), form.name]));
  const problems = [
    ...(saving.error ? errorMessages(saving.error) : []),
    ...(entryDeletion.isError ? errorMessages(entryDeletion.error) : []),
    ...(stateChange.isError ? refusalMessages(stateChange.error, formLabels, fixedForms) : []),
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
                setFixedForms(new Set());
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
      <LockMessage view={lock.view} heldBy={heldBy} reloading={reloading} />
      {heldBy === null && standing !== null && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {standing}
        </Alert>
      )}
      {local.offer && (
        <DraftOfferBanner
          typedAt={local.offer.typedAt}
          onRestore={() => {
            local.restore();
            notify(draftMessages.restored);
          }}
          onDiscard={() => {
            local.discard();
            notify(draftMessages.discarded);
          }}
        />
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
        {() =>
          current === undefined ? (
            <ProposalHistory proposal={proposal} />
          ) : (
            <FormPanel
              key={current.id}
              proposalId={proposal.id}
              form={current}
              draft={drafts[current.id]!}
              readOnly={!canEdit}
              // Not theirs to edit at all (not for a moment, as while another holds the lock).
              readable={!abilities.lock}
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
          )
        }
      </SearchParamTabs>
      <ConflictsPanel proposal={proposal} />
      <DecisionSummaryPanel proposal={proposal} />
      <ProposalDecisionPanel proposal={proposal} />

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
        {`Your changes to ${unsavedForms.map((form) => form.name).join(', ')} are not saved. If you leave now, they are kept only on this computer, and offered back when you open this proposal here again.`}
      </ConfirmDialog>
      <ConflictChoiceDialog
        open={conflicts.length > 0}
        conflicts={conflicts}
        pending={saving.saving !== null}
      />
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
 * What a refused state change says. A submit refused for incomplete forms lists each form
 * to fix (its `fields`, keyed by form id); a form saved with its answers checked since is
 * fixed and leaves the list, and once none is left the message goes with it.
 */
function refusalMessages(
  error: unknown,
  formLabels: Record<string, string>,
  fixed: ReadonlySet<number>,
): string[] {
  // The contract's `proposalErrorCodes.invalidForms`, which the editor's bundle does not load.
  if (!isApiError(error, 400) || error.body.code !== 'invalid_forms' || !error.body.fields)
    return errorMessages(error, formLabels);
  const open = Object.entries(error.body.fields).filter(([formId]) => !fixed.has(Number(formId)));
  if (open.length === 0) return [];
  return errorMessages(
    new ApiError(error.status, { ...error.body, fields: Object.fromEntries(open) }),
    formLabels,
  );
}

/** Another person who holds the lock, for the badge: null when it is free or this person's. */
function otherHolder(view: LockView, proposal: ProposalDetail, userId: number): string | null {
  let state: { holderId: number | null; holder: string | null } | null = null;
  if (view.status === 'mine' || view.status === 'notMine') state = view.lock;
  // Someone who may not take the lock (a reader) sees who holds it from the proposal.
  else if (view.status === 'pending') state = proposal.lockHolder;
  if (!state || state.holderId === null || state.holderId === userId) return null;
  return state.holder;
}

/** Why the answers cannot be changed now, when the lock says. */
function LockMessage({
  view,
  heldBy,
  reloading,
}: {
  view: LockView;
  heldBy: string | null;
  reloading: boolean;
}) {
  let message: string | null = null;
  let severity: 'info' | 'warning' = 'info';
  if (view.status === 'notMine') {
    message =
      view.lock.message ??
      (heldBy !== null ? proposalMessages.locked(heldBy) : editingMessages.otherTab);
  } else if (view.status === 'pending' && heldBy !== null) {
    message = proposalMessages.locked(heldBy);
  } else if (view.status === 'failed') {
    severity = 'warning';
    const { error } = view;
    // A refusal the server explains says so; a lost connection or a server error is one.
    message =
      isApiError(error) && error.status >= 400 && error.status < 500
        ? editingMessages.lockFailed(error.body.detail)
        : editingMessages.unreachable;
  } else if (view.status === 'refused') {
    severity = 'warning';
    message = view.message;
  } else if (reloading) {
    message = editingMessages.reloading;
  }
  if (message === null) return null;
  return (
    <Alert severity={severity} sx={{ mb: 2 }}>
      {message}
    </Alert>
  );
}

/**
 * When the lock comes back to this tab after it was not this tab's (someone else held it,
 * a save was refused, or the server could not be reached), answers may have been saved
 * meanwhile: the proposal loads again before anything can be changed, and its fresher
 * answers replace the unchanged forms or are offered for the changed ones. True while
 * that load runs.
 */
function useReloadWhenLockReturns(proposalId: number, status: LockView['status']): boolean {
  const queryClient = useQueryClient();
  const [seen, setSeen] = useState(status);
  const [reloading, setReloading] = useState(false);
  // During the render, so that no render in between lets the answers be changed.
  if (seen !== status) {
    setSeen(status);
    if (status === 'mine' && seen !== 'pending') setReloading(true);
  }
  useEffect(() => {
    if (!reloading) return;
    let active = true;
    void queryClient
      .refetchQueries({ queryKey: proposalKeys.detail(proposalId) })
      .finally(() => active && setReloading(false));
    return () => {
      active = false;
    };
  }, [reloading, proposalId, queryClient]);
  return reloading;
}

/**
 * Every entry someone else saved (or deleted) while the person changed it, in the forms'
 * order, as the choice shows it: which form and entry, by whom and when, what differs,
 * and what each choice does. Keep mine takes theirs as the version to write over and
 * saves the form once the choice is in the answers; Take theirs puts the saved answers
 * in the form (after Copy mine, once the person's are on the clipboard).
 */
function useConflictChoices({
  forms,
  drafts,
  dispatch,
  save,
}: {
  forms: readonly EditorForm[];
  drafts: DraftState;
  dispatch: (action: DraftAction) => void;
  save: (form: EditorForm) => Promise<void>;
}): Conflict[] {
  const notify = useNotify();
  const saveNext = useRef<EditorForm | null>(null);
  // After the render that holds the choice: the save reads the answers as they are then.
  useEffect(() => {
    const form = saveNext.current;
    if (form === null) return;
    saveNext.current = null;
    void save(form);
  });

  return forms.flatMap((form) =>
    (drafts[form.id]?.entries ?? []).flatMap((item, index): Conflict[] => {
      const { conflict } = item;
      if (!conflict) return [];
      const where = form.multi ? `${form.name}, entry ${index + 1}` : form.name;
      const named = { ...form, name: where };
      return [
        {
          id: `${form.id}:${item.key}`,
          message:
            conflict.theirs === null
              ? editingMessages.deleted(where)
              : editingMessages.changedBy(
                  where,
                  conflict.savedBy,
                  conflict.savedAt ? atLocalTime(conflict.savedAt) : null,
                ),
          rows: conflict.theirs ? answerChanges(named, item.draft, conflict.theirs) : [],
          copy: { text: answersText([{ form: named, answers: item.draft }]) },
          onKeepMine: () => {
            saveNext.current = form;
            dispatch({ type: 'keepMine', formId: form.id, key: item.key });
          },
          onTakeTheirs: ({ copied }) => {
            dispatch({ type: 'takeTheirs', form, key: item.key });
            if (copied) notify(editingMessages.copied);
          },
        },
      ];
    }),
  );
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
