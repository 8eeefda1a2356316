import type { ProposalDetail, ReviewDetail } from '@merit/contract';
import { formatScore, reviewMessages } from '@merit/domain';
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
import { useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessages } from '../../../api/client';
import { BackLink } from '../../../components/BackLink';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorList } from '../../../components/ErrorList';
import { PageHeading } from '../../../components/PageHeading';
import { SearchParamTabs, useSearchParamTab } from '../../../components/SearchParamTabs';
import { formatCallDate } from '../../calls/call-dates';
import { ChangeMarks } from '../../proposals/editor/ChangeMarks';
import { hasFormErrors, isFormDirty, type EditorForm } from '../../proposals/editor/editor-state';
import { FormPanel } from '../../proposals/editor/FormPanel';
import { useLeavePrompt } from '../../proposals/editor/use-leave-prompt';
import { useProposalDrafts } from '../../proposals/editor/use-proposal-drafts';
import { ProposalAnswers } from '../ProposalAnswers';
import { liveScore, type ScoreForm } from '../review-forms';
import { reviewListPath, reviewPath } from '../review-paths';
import { useSaveReview } from './use-save-review';

/** A new review has no answers yet: one object, so the drafts do not reload each render. */
const NO_RESPONSES: ReviewDetail['responses'] = {};

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
  const canSave = review ? review.abilities.edit : proposal.abilities.review;

  const { drafts, dispatch, latest } = useProposalDrafts(review?.responses ?? NO_RESPONSES, forms);
  const [validate, setValidate] = useState(true);
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

  const saving = useSaveReview({
    callId: proposal.callId,
    proposalId: proposal.id,
    reviewId: review?.id ?? null,
    forms,
    latest,
    dispatch,
    validate,
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

  const score = liveScore(scoreForms, drafts);
  const backTo = proposal.abilities.viewReviews
    ? { to: reviewListPath(proposal.callId, proposal.id), label: 'Reviews' }
    : { to: `/calls/${proposal.callId}/proposals/${proposal.id}/`, label: 'Proposal' };

  // One Save for the whole review: every form with changes, under one hash.
  const saveButton = (
    <Button
      variant="contained"
      loading={saving.saving}
      disabled={!canSave || saving.saving}
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

      {!canSave && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {review
            ? 'Only its reviewer can change this review, and only while reviews of this call can be saved.'
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
        {`Your changes to ${unsavedForms.map((form) => form.name).join(', ')} are not saved. If you leave now, they are lost.`}
      </ConfirmDialog>
    </>
  );
}
