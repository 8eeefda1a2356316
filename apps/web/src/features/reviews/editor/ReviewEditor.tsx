import type { ProposalDetail, ReviewDetail, StaleReview } from '@merit/contract';
import { formatScore, reviewEditingMessages, reviewMessages } from '@merit/domain';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  Paper,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessages } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorList } from '../../../components/ErrorList';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeading } from '../../../components/PageHeading';
import { SearchParamTabs, useSearchParamTab } from '../../../components/SearchParamTabs';
import { useCurrentUser } from '../../auth/session-hooks';
import { formatCallDate } from '../../calls/call-dates';
import { answerChanges, answersText } from '../../drafts/answer-changes';
import { ConflictChoiceDialog } from '../../drafts/ConflictChoiceDialog';
import { DraftOfferBanner } from '../../drafts/DraftOfferBanner';
import { atLocalTime } from '../../drafts/draft-time';
import {
  deleteDraft,
  draftKey,
  draftsUnder,
  scopePrefix,
  type LocalDraft,
} from '../../drafts/local-drafts';
import { useKeptDrafts, type UnsavedWork } from '../../drafts/use-kept-drafts';
import { ChangeMarks } from '../../proposals/editor/ChangeMarks';
import {
  hasFormErrors,
  isEntryDirty,
  isFormDirty,
  type Answers,
  type EditorForm,
} from '../../proposals/editor/editor-state';
import { FormPanel } from '../../proposals/editor/FormPanel';
import { useLeavePrompt } from '../../proposals/editor/use-leave-prompt';
import { useProposalDrafts } from '../../proposals/editor/use-proposal-drafts';
import { ProposalAnswers } from '../ProposalAnswers';
import { liveScore, type ScoreForm } from '../review-forms';
import { reviewListPath, reviewPath } from '../review-paths';
import { useSaveReview, type ReviewConflict } from './use-save-review';

/** A new review has no answers yet: one object, so the drafts do not reload each render. */
const NO_RESPONSES: ReviewDetail['responses'] = {};

/** The unsaved answers kept on this computer when the editor opened, offered back. */
interface DraftOffer {
  typedAt: number;
  drafts: Map<number, LocalDraft<Answers>>;
}

/** The choice on screen: the person's answers against the review as saved now. */
interface OpenConflict {
  message: string;
  current: StaleReview;
}

interface ReviewEditorProps {
  proposal: ProposalDetail;
  /** The proposal's forms, shown read-only above the review. */
  proposalForms: readonly EditorForm[];
  /** The review forms of the proposal's type, in the call's order: at least one. */
  forms: readonly EditorForm[];
  scoreForms: readonly ScoreForm[];
  /** The review as saved; null for a new one, until the page loads it again. */
  review: ReviewDetail | null;
  /** The first save made the review (the page then stands at its address). */
  onCreated: (reviewId: number) => void;
}

/**
 * The review editor (spec section 2, Reviews): the proposal read-only above, then one
 * tab per review form and a Save button. Save is enabled only for a new review, or for
 * the review's own author, while reviews can be saved (spec section 5, Review): the
 * server's abilities say which. The score is worked out in the browser as the reviewer
 * scores, exactly as the server works it out on saving.
 */
export function ReviewEditor({
  proposal,
  proposalForms,
  forms,
  scoreForms,
  review,
  onCreated,
}: ReviewEditorProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const scoreId = useId();
  const notify = useNotify();
  const user = useCurrentUser();
  const canSave = review ? review.abilities.edit : proposal.abilities.review;
  // Its author and collaborators never review it, whenever they come (spec section 6).
  const ownProposal = proposal.authorId === user.id || proposal.collaboratorIds.includes(user.id);

  const { drafts, dispatch, latest } = useProposalDrafts(review?.responses ?? NO_RESPONSES, forms);
  const [validate, setValidate] = useState(true);
  // Drafts are kept per form, with the review's version they started from; one key for a
  // new review and the saved one, so the new-review page's answers reach the saved review.
  const keyOf = useCallback(
    (formId: number) => draftKey(user.id, { kind: 'review', proposalId: proposal.id, formId }),
    [user.id, proposal.id],
  );
  const tabs = forms.map((form) => ({
    value: String(form.id),
    label: (
      <span>
        {form.name}
        <ChangeMarks
          unsaved={canSave && isFormDirty(drafts[form.id]!)}
          errors={hasFormErrors(drafts[form.id]!)}
        />
      </span>
    ),
  }));
  const [tab, setTab] = useSearchParamTab(tabs);
  const current = forms.find((form) => String(form.id) === tab)!;

  const unsavedForms = canSave ? forms.filter((form) => isFormDirty(drafts[form.id]!)) : [];
  const leave = useLeavePrompt(unsavedForms.length > 0);

  const [offer, setOffer] = useState<DraftOffer | null | undefined>(canSave ? undefined : null);
  const [conflict, setConflict] = useState<OpenConflict | null>(null);
  // The new-review page when the person has a saved review already: theirs to open.
  const [existing, setExisting] = useState<StaleReview | null>(null);
  // Keep mine: save once the editor shows the saved answers of the forms left unchanged.
  const [saveAgain, setSaveAgain] = useState(0);

  const saving = useSaveReview({
    callId: proposal.callId,
    proposalId: proposal.id,
    initial: { reviewId: review?.id ?? null, version: review?.version ?? null },
    forms,
    latest,
    dispatch,
    validate,
    onConflict: (found: ReviewConflict) => {
      if (found.exists) {
        setExisting(found.current);
        return;
      }
      // The forms left unchanged show what is saved now; the changed ones await the choice.
      dispatch({ type: 'load', forms, responses: found.current.responses });
      setConflict({
        message: reviewEditingMessages.savedElsewhere(atLocalTime(found.current.savedAt)),
        current: found.current,
      });
    },
    onRefused: (formId) => setTab(String(formId)),
    onCreated: (reviewId, refusedFormId) => {
      // The review has an address of its own now; the answers on screen stay as they are.
      const pathname = reviewPath(proposal.callId, proposal.id, reviewId);
      // The tab to show there: the refused form's (the first tab has no `?tab=`), or this one.
      let search = location.search;
      if (refusedFormId !== null)
        search = refusedFormId === forms[0]!.id ? '' : `?tab=${refusedFormId}`;
      leave.allowMoveTo(pathname);
      onCreated(reviewId);
      void navigate({ pathname, search }, { replace: true });
    },
  });

  const { base, setBase } = saving;
  useEffect(() => {
    if (saveAgain > 0) void saving.save();
    // Only when Keep mine asks, once its answers are on screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saveAgain]);

  // The review loaded again (after a save, or saved elsewhere): with nothing unsaved, the
  // forms show it now, so the next save starts from its version. With unsaved answers the
  // version stays, and their save is refused as stale, to be chosen between.
  const loadedVersion = review?.version;
  useEffect(() => {
    if (loadedVersion === undefined || base.reviewId === null) return;
    if (base.version !== null && loadedVersion <= base.version) return;
    if (forms.some((form) => isFormDirty(latest.current[form.id]!))) return;
    setBase({ reviewId: base.reviewId, version: loadedVersion });
  }, [loadedVersion, base, forms, latest, setBase]);

  // The unsaved answers kept on this computer, read once as the editor opens.
  useEffect(() => {
    if (!canSave) return;
    let live = true;
    void draftsUnder<Answers>(
      scopePrefix(user.id, { kind: 'review', proposalId: proposal.id }),
    ).then((found) => {
      if (!live) return;
      const offered = new Map<number, LocalDraft<Answers>>();
      for (const [key, draft] of found) {
        const form = forms.find((item) => keyOf(item.id) === key);
        const item = form && latest.current[form.id]?.entries[0];
        if (!form || !item) continue;
        // The same as saved: nothing to offer.
        if (!isEntryDirty({ ...item, draft: draft.data })) void deleteDraft(key);
        else offered.set(form.id, draft);
      }
      const typedAt = Math.max(...[...offered.values()].map((draft) => draft.typedAt));
      setOffer(offered.size > 0 ? { typedAt, drafts: offered } : null);
    });
    return () => {
      live = false;
    };
    // Once: what was kept before this editor opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Each changed form's answers, kept as the person types; none while an offer or a
  // choice is open (what is offered must not be overwritten by what is typed meanwhile).
  const work = useMemo(() => {
    if (!canSave || offer !== null || conflict !== null) return null;
    return new Map<string, UnsavedWork | null>(
      forms.map((form) => {
        const item = drafts[form.id]!.entries[0]!;
        const unsaved = isEntryDirty(item) ? { data: item.draft, baseVersion: base.version } : null;
        return [keyOf(form.id), unsaved];
      }),
    );
  }, [canSave, offer, conflict, forms, drafts, base.version, keyOf]);
  useKeptDrafts(work);

  const forgetDrafts = () => forms.forEach((form) => void deleteDraft(keyOf(form.id)));

  /**
   * Every form shows the saved answers of `current` (loaded into the forms already): a form
   * saved elsewhere takes them, a form changed only here goes back to them.
   */
  function takeSaved(current: StaleReview) {
    for (const form of forms) {
      const item = latest.current[form.id]!.entries[0]!;
      if (item.conflict) dispatch({ type: 'takeTheirs', form, key: item.key });
      else if (isEntryDirty(item) && item.baseline)
        dispatch({ type: 'change', form, key: item.key, answers: item.baseline, validate: false });
      dispatch({ type: 'formSaved', formId: form.id });
    }
    setBase({ reviewId: current.reviewId, version: current.version });
    forgetDrafts();
  }

  function restore(found: DraftOffer) {
    for (const [formId, draft] of found.drafts) {
      const form = forms.find((item) => item.id === formId)!;
      const item = latest.current[formId]!.entries[0]!;
      dispatch({ type: 'change', form, key: item.key, answers: draft.data, validate });
    }
    setOffer(null);
    // Answers typed from an older version of a saved review: the same choice as a stale save.
    const older = [...found.drafts.values()].some((draft) => draft.baseVersion !== base.version);
    if (review && base.reviewId !== null && older)
      setConflict({
        message: reviewEditingMessages.restoredStale(atLocalTime(review.lastModified)),
        current: {
          reviewId: base.reviewId,
          version: review.version,
          responses: review.responses as StaleReview['responses'],
          savedAt: review.lastModified,
        },
      });
  }

  const unsavedNow = forms.filter((form) => isFormDirty(drafts[form.id]!));
  const choice = conflict && {
    id: 'review',
    message: conflict.message,
    rows: unsavedNow.flatMap((form) =>
      answerChanges(
        form,
        drafts[form.id]!.entries[0]!.draft,
        (conflict.current.responses[String(form.id)] ?? {}) as Answers,
      ),
    ),
    copy: {
      text: answersText(
        unsavedNow.map((form) => ({ form, answers: drafts[form.id]!.entries[0]!.draft })),
      ),
    },
    onKeepMine: () => {
      const { current } = conflict;
      // The changed forms are saved over what is saved now, from its version.
      for (const form of forms)
        dispatch({
          type: 'keepMine',
          formId: form.id,
          key: latest.current[form.id]!.entries[0]!.key,
        });
      setBase({ reviewId: current.reviewId, version: current.version });
      setConflict(null);
      setSaveAgain((count) => count + 1);
    },
    onTakeTheirs: ({ copied }: { copied: boolean }) => {
      takeSaved(conflict.current);
      setConflict(null);
      if (copied) notify(reviewEditingMessages.copied);
    },
  };

  const score = liveScore(scoreForms, drafts);
  const backTo = proposal.abilities.viewReviews
    ? { to: reviewListPath(proposal.callId, proposal.id), label: 'Reviews' }
    : { to: `/calls/${proposal.callId}/proposals/${proposal.id}/`, label: 'Proposal' };

  // One Save for the whole review: every form with changes, under one hash.
  const saveButton = (
    <Button
      variant="contained"
      loading={saving.saving}
      disabled={!canSave || saving.saving || existing !== null}
      onClick={() => void saving.save()}
    >
      Save
    </Button>
  );

  return (
    <>
      <BackLink to={backTo.to}>{backTo.label}</BackLink>
      <PageHeading>{`Review of ${proposal.proposalName}`}</PageHeading>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        sx={{ mb: 3, gap: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography color="text.secondary">
          {proposal.proposalTypeName} · {proposal.callName} · by {proposal.author}
          <br />
          {review
            ? `Review by ${review.author} · last saved ${formatCallDate(review.lastModified)}`
            : 'Your review: it is saved when you select Save.'}
        </Typography>
        {scoreForms.length > 0 && (
          <Paper
            variant="outlined"
            role="status"
            aria-labelledby={`${scoreId}-label`}
            sx={{ px: 2.5, py: 1.5, minWidth: 160 }}
          >
            <Typography id={`${scoreId}-label`} variant="body2" color="text.secondary">
              Score
            </Typography>
            <Typography variant="h4" component="p">
              {formatScore(score)}
            </Typography>
          </Paper>
        )}
      </Stack>

      {offer && (
        <DraftOfferBanner
          typedAt={offer.typedAt}
          onRestore={() => restore(offer)}
          onDiscard={() => {
            offer.drafts.forEach((_, formId) => void deleteDraft(keyOf(formId)));
            setOffer(null);
          }}
        />
      )}
      {existing && (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button
              color="inherit"
              onClick={() => {
                const pathname = reviewPath(proposal.callId, proposal.id, existing.reviewId);
                leave.allowMoveTo(pathname);
                void navigate(pathname);
              }}
            >
              {reviewEditingMessages.openSaved}
            </Button>
          }
        >
          {reviewEditingMessages.exists(atLocalTime(existing.savedAt))}{' '}
          {reviewEditingMessages.keptForSaved}
        </Alert>
      )}
      {!canSave && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {review
            ? 'Only its reviewer can change this review, and only while reviews of this call can be saved.'
            : ownProposal
              ? reviewMessages.ownProposal
              : 'You cannot review this proposal now. Committee members review a proposal once it is submitted, while the call’s review period is open.'}
        </Alert>
      )}

      <Box component="section" aria-labelledby={`${scoreId}-proposal`} sx={{ mb: 4 }}>
        <Typography id={`${scoreId}-proposal`} variant="h5" component="h2" sx={{ mb: 1.5 }}>
          The proposal
        </Typography>
        <ProposalAnswers proposal={proposal} forms={proposalForms} />
      </Box>

      <ErrorList
        messages={saving.error ? [reviewMessages.saveFailed, ...errorMessages(saving.error)] : []}
      />
      {canSave && (
        <FormControlLabel
          control={
            <Switch checked={validate} onChange={(event) => setValidate(event.target.checked)} />
          }
          label="Check answers when saving"
          sx={{ mb: 1 }}
        />
      )}
      <SearchParamTabs label="Forms of this review" tabs={tabs}>
        {() => (
          <FormPanel
            key={current.id}
            proposalId={proposal.id}
            form={current}
            draft={drafts[current.id]!}
            readOnly={!canSave}
            // A saved review that is not theirs to change reads as a page.
            readable={!canSave && review !== null}
            onChange={(key, answers) =>
              dispatch({ type: 'change', form: current, key, answers, validate })
            }
            // Review forms take one entry each (types 2 and 3).
            onAdd={() => {}}
            onDelete={() => {}}
            onSave={() => void saving.save()}
            saveFailedMessage={reviewMessages.saveFailed}
            actions={saveButton}
          />
        )}
      </SearchParamTabs>
      {/* Read-only forms have no actions of their own; Save is shown, not offered. */}
      {!canSave && <Box sx={{ mt: 3 }}>{saveButton}</Box>}

      <ConfirmDialog
        open={leave.blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        onConfirm={() => leave.blocker.proceed?.()}
        onCancel={() => leave.blocker.reset?.()}
      >
        {reviewEditingMessages.leave(unsavedForms.map((form) => form.name).join(', '))}
      </ConfirmDialog>
      <ConflictChoiceDialog
        open={choice !== null}
        title={reviewEditingMessages.conflictTitle}
        help={reviewEditingMessages.conflictHelp}
        conflicts={choice ? [choice] : []}
      />
    </>
  );
}
