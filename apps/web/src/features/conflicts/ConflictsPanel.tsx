import type { ConflictCandidate, ProposalConflicts, ProposalDetail } from '@merit/contract';
import {
  CONFLICT_REASON_MAX,
  CONFLICT_TYPE_LABELS,
  conflictMessages,
  conflictScreenMessages,
  DECLARED_CONFLICT_TYPES,
  type DeclaredConflictType,
} from '@merit/domain';
import LockIcon from '@mui/icons-material/Lock';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useNotify } from '../../components/notifications/notification-context';
import { SearchField } from '../../components/SearchField';
import { useCurrentUser } from '../auth/session-hooks';
import { ConflictChoiceDialog, type Conflict } from '../drafts/ConflictChoiceDialog';
import { isStale, staleCurrent } from '../drafts/stale';
import { DECLARED_TYPE_OPTIONS, isDeclaredType } from './conflict-words';
import { conflictKeys, saveDeclarations, useProposalConflicts } from './conflicts.api';

/** A committee this long gets a search above its list. */
const SEARCH_FROM = 10;

/** One ticked member: the kind of conflict, why, and whether a chair pinned it. */
interface Choice {
  type: DeclaredConflictType;
  reason: string;
  pinned: boolean;
}
type Choices = ReadonlyMap<number, Choice>;

/**
 * The applicant's Conflicts panel (issue 26): in the proposal editor, for its author and
 * collaborators, the call's committee members with a checkbox each, the kind of conflict
 * and an optional reason. Saved as a whole, like a form, from the version it opened (a
 * change by a fellow applicant meanwhile is shown for them to choose). Chairs judge
 * conflicts on the call's Conflicts page instead; on a call with conflicts turned off the
 * panel is not shown.
 */
export function ConflictsPanel({ proposal }: { proposal: ProposalDetail }) {
  const user = useCurrentUser();
  const headingId = useId();
  const { abilities } = proposal;
  const team = proposal.authorId === user.id || proposal.collaboratorIds.includes(user.id);
  const shown = abilities.declareConflicts || (abilities.viewConflicts && team);
  const conflicts = useProposalConflicts(proposal.id, shown);
  // Not while it loads either: on a call with conflicts turned off it would only flash.
  if (!shown || conflicts.isPending || conflicts.data?.enabled === false) return null;

  let content;
  if (conflicts.isError) content = <ErrorList messages={errorMessages(conflicts.error)} />;
  else
    content = (
      <Declarations
        proposal={proposal}
        saved={conflicts.data}
        editable={abilities.declareConflicts && conflicts.data.abilities.declare}
      />
    );
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: 2, mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        Conflicts of Interest
      </Typography>
      {content}
    </Paper>
  );
}

/** The applicant's declarations in a saved answer: by member, without Merit's authorship. */
function choicesOf(saved: ProposalConflicts): Map<number, Choice> {
  const choices = new Map<number, Choice>();
  for (const item of saved.conflicts) {
    if (!isDeclaredType(item.type)) continue;
    // Kept as it is when a chair pinned it, or the server says it cannot be removed.
    const pinned = item.pinned || item.abilities?.remove === false;
    choices.set(item.userId, { type: item.type, reason: item.reason, pinned });
  }
  return choices;
}

const sameChoices = (a: Choices, b: Choices) =>
  a.size === b.size &&
  [...a].every(([userId, choice]) => {
    const other = b.get(userId);
    return other?.type === choice.type && other.reason.trim() === choice.reason.trim();
  });

/** A member's line as the stale choice compares them: "Same institution: shares a lab". */
const choiceText = (choice: Choice | undefined) =>
  choice
    ? `${CONFLICT_TYPE_LABELS[choice.type]}${choice.reason.trim() ? `: ${choice.reason.trim()}` : ''}`
    : 'No conflict';

/** What the panel started from: the version and what it held. */
interface Base {
  version: number;
  choices: Choices;
}

function Declarations({
  proposal,
  saved,
  editable,
}: {
  proposal: ProposalDetail;
  saved: ProposalConflicts;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [base, setBase] = useState<Base>(() => ({
    version: saved.version,
    choices: choicesOf(saved),
  }));
  const [choices, setChoices] = useState<Choices>(base.choices);
  const [search, setSearch] = useState('');
  const [stale, setStale] = useState<{ message: string; current: ProposalConflicts } | null>(null);
  const dirty = !sameChoices(choices, base.choices);

  // Loaded again with a newer version (a fellow applicant saved): shown at once when
  // nothing is changed here; otherwise the next save is stale, and the person chooses.
  const [loaded, setLoaded] = useState(saved.version);
  if (loaded !== saved.version) {
    setLoaded(saved.version);
    if (!dirty && saved.version > base.version) {
      const fresh = { version: saved.version, choices: choicesOf(saved) };
      setBase(fresh);
      setChoices(fresh.choices);
    }
  }

  const take = (answer: ProposalConflicts) => {
    const fresh = { version: answer.version, choices: choicesOf(answer) };
    setBase(fresh);
    setChoices(fresh.choices);
    queryClient.setQueryData(conflictKeys.ofProposal(proposal.id), answer);
  };

  const save = useMutation({
    mutationFn: ({ version, mine }: { version: number; mine: Choices }) =>
      saveDeclarations(proposal.id, {
        version,
        declarations: [...mine].map(([userId, choice]) => ({
          userId,
          type: choice.type,
          reason: choice.reason.trim(),
        })),
      }),
    onSuccess: (answer) => {
      take(answer);
      notify(conflictScreenMessages.panelSaved);
    },
    onError: async (error) => {
      const current = await staleCurrent(error, (c) => c.proposalConflicts);
      if (current)
        setStale({ message: errorMessages(error)[0] ?? conflictMessages.stale, current });
    },
  });

  const teamIds = new Set([proposal.authorId, ...proposal.collaboratorIds]);
  const members = saved.candidates.filter((member) => !teamIds.has(member.userId));
  const nameOf = (userId: number) =>
    saved.candidates.find((member) => member.userId === userId)?.name ??
    stale?.current.conflicts.find((item) => item.userId === userId)?.userName ??
    `Member ${userId}`;

  const change = (userId: number, next: Choice | null) => {
    save.reset();
    setChoices((current) => {
      const changed = new Map(current);
      if (next) changed.set(userId, next);
      else changed.delete(userId);
      return changed;
    });
  };

  if (!editable) return <ReadOnlyDeclarations choices={choices} nameOf={nameOf} />;

  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const shown = members.filter((member) => {
    const text = `${member.name} ${member.institution}`.toLocaleLowerCase();
    return words.every((word) => text.includes(word));
  });

  const choice: Conflict | null = stale && {
    id: 'conflicts',
    message: stale.message,
    rows: [...new Set([...choices.keys(), ...choicesOf(stale.current).keys()])]
      .map((userId) => ({
        label: nameOf(userId),
        mine: choiceText(choices.get(userId)),
        theirs: choiceText(choicesOf(stale.current).get(userId)),
      }))
      .filter((row) => row.mine !== row.theirs),
    copy: {
      text: [...choices]
        .map(([userId, item]) => `${nameOf(userId)}: ${choiceText(item)}`)
        .join('\n'),
    },
    onKeepMine: () => {
      const { current } = stale;
      setStale(null);
      save.mutate({ version: current.version, mine: choices });
    },
    onTakeTheirs: ({ copied }) => {
      take(stale.current);
      setStale(null);
      save.reset();
      if (copied) notify('Your choice is on the clipboard.');
    },
  };

  const failure = save.isError && !isStale(save.error) ? save.error : null;
  return (
    <Box>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {conflictScreenMessages.panelHelp}
      </Typography>
      <ErrorList messages={failure ? errorMessages(failure) : []} />
      {members.length === 0 ? (
        <Typography sx={{ py: 1 }}>{conflictScreenMessages.panelNoMembers}</Typography>
      ) : (
        <>
          {members.length > SEARCH_FROM && (
            <Box sx={{ mb: 1 }}>
              <SearchField label="Search committee members" value={search} onChange={setSearch} />
            </Box>
          )}
          {shown.length === 0 && (
            <Typography sx={{ py: 1 }}>{`No member matches “${search.trim()}”.`}</Typography>
          )}
          <List dense aria-label="Committee members" disablePadding>
            {shown.map((member) => (
              <MemberChoice
                key={member.userId}
                member={member}
                choice={choices.get(member.userId) ?? null}
                onChange={(next) => change(member.userId, next)}
              />
            ))}
          </List>
        </>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
        <Button
          variant="contained"
          loading={save.isPending}
          disabled={stale !== null || members.length === 0}
          onClick={() => save.mutate({ version: base.version, mine: choices })}
        >
          Save Conflicts
        </Button>
        {dirty && (
          <Typography variant="body2" color="text.secondary">
            Your changes to the conflicts are not saved yet.
          </Typography>
        )}
      </Stack>
      <ConflictChoiceDialog
        open={choice !== null}
        title={conflictScreenMessages.staleTitle}
        help={conflictScreenMessages.staleHelp}
        copyFailed={conflictScreenMessages.staleCopyFailed}
        conflicts={choice ? [choice] : []}
        pending={save.isPending}
      />
    </Box>
  );
}

/** One member: ticked or not, then the kind of conflict and the reason; a pinned one stays. */
function MemberChoice({
  member,
  choice,
  onChange,
}: {
  member: ConflictCandidate;
  choice: Choice | null;
  onChange: (next: Choice | null) => void;
}) {
  const pinned = choice?.pinned === true;
  return (
    <ListItem divider sx={{ display: 'block', py: 1 }}>
      {/* A group inside the list item: a list may hold only items (WAI-ARIA). */}
      <Box role="group" aria-label={member.name}>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={choice !== null}
                disabled={pinned}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? { type: DECLARED_CONFLICT_TYPES[0], reason: '', pinned: false }
                      : null,
                  )
                }
              />
            }
            label={
              <ListItemText
                primary={member.name}
                secondary={member.institution || 'No institution given'}
              />
            }
          />
          {pinned && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
            >
              <LockIcon fontSize="small" aria-hidden />
              {conflictMessages.pinned}
            </Typography>
          )}
        </Stack>
        {choice && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ pl: 4, pb: 1 }}>
            <Box sx={{ minWidth: 220 }}>
              <SelectInput
                name={`type-${member.userId}`}
                label="Kind of conflict"
                value={choice.type}
                placeholder="Choose the kind"
                onChange={(event) =>
                  isDeclaredType(event.target.value) &&
                  onChange({ ...choice, type: event.target.value })
                }
                options={DECLARED_TYPE_OPTIONS}
              />
            </Box>
            <TextInput
              name={`reason-${member.userId}`}
              label="Reason (optional)"
              value={choice.reason}
              maxLength={CONFLICT_REASON_MAX}
              onChange={(event) => onChange({ ...choice, reason: event.target.value })}
            />
          </Stack>
        )}
      </Box>
    </ListItem>
  );
}

/** After the call has closed: what was declared, to read. */
function ReadOnlyDeclarations({
  choices,
  nameOf,
}: {
  choices: Choices;
  nameOf: (userId: number) => string;
}) {
  return (
    <Box>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {conflictScreenMessages.panelReadOnly}
      </Typography>
      {choices.size === 0 ? (
        <Typography>No conflicts of interest were declared.</Typography>
      ) : (
        <List dense aria-label="Declared conflicts" disablePadding>
          {[...choices].map(([userId, choice]) => (
            <ListItem key={userId} divider>
              <ListItemText primary={nameOf(userId)} secondary={choiceText(choice)} />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
