import type { ProposalDetail, StaleDecision } from '@merit/contract';
import { decisionEditingMessages } from '@merit/domain';
import { Box, Button, Paper, Skeleton, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { errorMessages, isApiError } from '../../../api/client';
import { ErrorList } from '../../../components/ErrorList';
import { useNotify } from '../../../components/notifications/notification-context';
import { useCurrentUser } from '../../auth/session-hooks';
import { RichTextView } from '../../calls/RichTextView';
import { htmlText } from '../../drafts/answer-changes';
import { ConflictChoiceDialog } from '../../drafts/ConflictChoiceDialog';
import { DraftOfferBanner } from '../../drafts/DraftOfferBanner';
import { atLocalTime } from '../../drafts/draft-time';
import { deleteDraft, draftKey, getDraft, type LocalDraft } from '../../drafts/local-drafts';
import { isStale, staleCurrent } from '../../drafts/stale';
import { useKeptDrafts } from '../../drafts/use-kept-drafts';
import { proposalKeys, saveDecisionSummary } from '../proposals.api';

const RichTextEditor = lazy(() => import('../../calls/RichTextEditor'));

export const DECISION_EMPTY = 'No decision summary has been written yet.';
export const DECISION_SAVED = 'The decision summary has been saved.';

/**
 * The Decision Summary panel (spec section 2, Proposal editor): chairs of the call's
 * committee (`abilities.editDecision`) write it in the rich-text editor and Save; those
 * who may read it (`abilities.viewDecision`: its authors once the call is closed) read
 * it. The server decides both: for anyone else `decisionSummary` is absent and the panel
 * is not shown.
 */
export function DecisionSummaryPanel({ proposal }: { proposal: ProposalDetail }) {
  const { abilities } = proposal;
  const headingId = useId();
  if (
    !abilities.editDecision &&
    (!abilities.viewDecision || proposal.decisionSummary === undefined)
  )
    return null;
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        Decision Summary
      </Typography>
      {abilities.editDecision ? (
        <DecisionEditor proposal={proposal} />
      ) : proposal.decisionSummary ? (
        <RichTextView html={proposal.decisionSummary} />
      ) : (
        <Typography color="text.secondary">{DECISION_EMPTY}</Typography>
      )}
    </Paper>
  );
}

/** What the text on screen started from: the saved text and its version. */
interface Base {
  summary: string;
  version: number;
}

/** The choice on screen: the chair's text against the summary as saved now. */
interface OpenConflict {
  message: string;
  current: StaleDecision;
}

function DecisionEditor({ proposal }: { proposal: ProposalDetail }) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const key = draftKey(user.id, { kind: 'decision', proposalId: proposal.id });
  const savedSummary = proposal.decisionSummary ?? '';
  const savedVersion = proposal.decisionSummaryVersion ?? 0;

  const [summary, setSummary] = useState(savedSummary);
  const [base, setBase] = useState<Base>({ summary: savedSummary, version: savedVersion });
  // The rich-text editor takes its text when it starts: a new one shows other text.
  const [editorKey, setEditorKey] = useState(0);
  const [offer, setOffer] = useState<LocalDraft<string> | null | undefined>(undefined);
  const [conflict, setConflict] = useState<OpenConflict | null>(null);
  const unsaved = summary !== base.summary;

  const show = (text: string) => {
    setSummary(text);
    setEditorKey((count) => count + 1);
  };

  // The proposal loaded again with a newer summary (another chair saved): shown at once
  // when nothing is unsaved here; otherwise the next save is stale, and the chair chooses.
  const [loaded, setLoaded] = useState<Base>(base);
  if (loaded.summary !== savedSummary || loaded.version !== savedVersion) {
    setLoaded({ summary: savedSummary, version: savedVersion });
    if (!unsaved && savedVersion > base.version) {
      setBase({ summary: savedSummary, version: savedVersion });
      show(savedSummary);
    }
  }

  /** The summary as saved now, in this page's copy of the proposal. */
  const showSaved = (saved: { summary: string | null; version: number }) =>
    queryClient.setQueryData<ProposalDetail>(proposalKeys.detail(proposal.id), (old) =>
      old ? { ...old, decisionSummary: saved.summary, decisionSummaryVersion: saved.version } : old,
    );

  const save = useMutation({
    mutationFn: (from: Base) => saveDecisionSummary(proposal.id, from.summary, from.version),
    onSuccess: (saved, from) => {
      // Only the summary: the editor's answers stay as they are.
      showSaved({
        summary: saved.decisionSummary ?? null,
        version: saved.decisionSummaryVersion ?? from.version,
      });
      // What was sent is what is saved (the server may write it its own way).
      setBase({ summary: from.summary, version: saved.decisionSummaryVersion ?? from.version });
      notify(DECISION_SAVED);
    },
    onError: async (error) => {
      const current = await staleCurrent(error, (c) => c.staleDecision);
      if (!current) return;
      const when = current.savedAt ? atLocalTime(current.savedAt) : null;
      setConflict({ message: decisionEditingMessages.savedBy(current.savedBy, when), current });
    },
  });

  // The unsaved text kept on this computer, read once as the editor opens.
  useEffect(() => {
    let live = true;
    void getDraft<string>(key).then((draft) => {
      if (!live) return;
      if (draft && draft.data === savedSummary) void deleteDraft(key);
      setOffer(draft && draft.data !== savedSummary ? draft : null);
    });
    return () => {
      live = false;
    };
    // Once: what was kept before this editor opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Kept as the chair types; not while an offer or a choice is open.
  const work = useMemo(
    () =>
      offer === null && conflict === null
        ? new Map([[key, unsaved ? { data: summary, baseVersion: base.version } : null]])
        : null,
    [offer, conflict, key, unsaved, summary, base.version],
  );
  useKeptDrafts(work);

  function takeTheirs(current: StaleDecision) {
    const saved = { summary: current.summary ?? '', version: current.version };
    setBase(saved);
    show(saved.summary);
    showSaved(current);
    setConflict(null);
    save.reset();
    void deleteDraft(key);
  }

  function restore(draft: LocalDraft<string>) {
    show(draft.data);
    setOffer(null);
    // Typed from an older version: the same choice as a stale save.
    if (draft.baseVersion !== base.version)
      setConflict({
        message: decisionEditingMessages.restoredStale,
        current: { summary: base.summary, version: base.version, savedBy: null, savedAt: null },
      });
  }

  const choice = conflict && {
    id: 'decision',
    message: conflict.message,
    rows: [
      {
        label: decisionEditingMessages.label,
        mine: htmlText(summary),
        theirs: htmlText(conflict.current.summary ?? ''),
      },
    ],
    copy: { text: htmlText(summary), html: summary },
    onKeepMine: () => {
      const { current } = conflict;
      setBase({ summary: current.summary ?? '', version: current.version });
      setConflict(null);
      save.mutate({ summary, version: current.version });
    },
    onTakeTheirs: ({ copied }: { copied: boolean }) => {
      takeTheirs(conflict.current);
      if (copied) notify(decisionEditingMessages.copied);
    },
  };

  // The field's own message (an image over 500 KB) goes under the editor; the rest above.
  // A stale save is not an error to list: the choice says what happened.
  const error = save.isError && !isStale(save.error) ? save.error : null;
  const fieldMessages = isApiError(error) ? (error.body.fields?.summary ?? []) : [];
  const otherMessages = error
    ? errorMessages(error).filter((message) => !fieldMessages.includes(message))
    : [];
  return (
    <Box>
      {offer && (
        <DraftOfferBanner
          typedAt={offer.typedAt}
          offer={decisionEditingMessages.offer}
          onRestore={() => restore(offer)}
          onDiscard={() => {
            void deleteDraft(key);
            setOffer(null);
          }}
        />
      )}
      {!proposal.decisionSummary && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {DECISION_EMPTY}
        </Typography>
      )}
      <ErrorList messages={fieldMessages.length > 0 ? [] : otherMessages} />
      <Suspense
        fallback={
          <Skeleton variant="rounded" height={260} role="status" aria-label="Loading the editor…" />
        }
      >
        <RichTextEditor
          key={editorKey}
          label="Decision summary"
          value={summary}
          onChange={(html) => {
            setSummary(html);
            save.reset();
          }}
          error={fieldMessages.length > 0 ? fieldMessages.join(' ') : undefined}
        />
      </Suspense>
      <Button
        variant="contained"
        sx={{ mt: 1 }}
        loading={save.isPending}
        disabled={conflict !== null}
        onClick={() => save.mutate({ summary, version: base.version })}
      >
        Save
      </Button>
      <ConflictChoiceDialog
        open={choice !== null}
        title={decisionEditingMessages.conflictTitle}
        help={decisionEditingMessages.conflictHelp}
        copyFailed={decisionEditingMessages.copyFailed}
        conflicts={choice ? [choice] : []}
        pending={save.isPending}
      />
    </Box>
  );
}
