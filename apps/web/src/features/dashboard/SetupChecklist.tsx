import type { SetupStatus } from '@merit/contract';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Section } from '../../components/Section';
import { useCommitteeList } from '../committees/committees.api';
import { InvitationLink } from './InvitationLink';
import { useSetupStatus } from './setup.api';

interface Step {
  key: keyof SetupStatus;
  title: string;
  /** What to do, in the words of the screen it links to. */
  text: ReactNode;
  to: string;
  linkLabel: string;
}

const STEPS: readonly Step[] = [
  {
    key: 'committees',
    title: 'Create a committee',
    text: 'The committee runs its calls for proposals. Manage Committees has Add Committee.',
    to: '/committees/new',
    linkLabel: 'Add Committee',
  },
  {
    key: 'chairs',
    title: 'Give someone the chair role',
    text: 'Chairs create calls and assign reviewers. Open a person in Manage Users and use Add Role with the role Chair (you may choose yourself).',
    to: '/users',
    linkLabel: 'Manage Users',
  },
  {
    key: 'forms',
    title: 'Add forms',
    text: 'A call asks applicants to fill proposal forms and reviewers review forms. In the Form Builder, New Form has Load example: ready-made forms to start from.',
    to: '/forms/new',
    linkLabel: 'New Form (Load example)',
  },
  {
    key: 'calls',
    title: 'Create a call',
    text: 'The call wizard names the call, its dates and the forms of each proposal type.',
    to: '/calls/new',
    linkLabel: 'Add Call for Proposal',
  },
  {
    key: 'people',
    title: 'Invite people',
    text: 'Send this link to the people who will apply or review. They register and confirm their email as usual; give committee members their role in Manage Users.',
    to: '/users',
    linkLabel: 'Manage Users',
  },
];

const dismissedKey = (userId: number) => `merit:setup-checklist-dismissed:${userId}`;

function readDismissed(userId: number): boolean {
  try {
    return window.localStorage.getItem(dismissedKey(userId)) === 'yes';
  } catch {
    // Storage refused (a private window's policy): the checklist shows; Dismiss still hides it.
    return false;
  }
}

/**
 * The admin's first-run checklist (issue 30): on an installation that is not set up yet,
 * what to do before anyone can write a proposal, each step linking to its screen and ticked
 * from what the server counts. It goes away when every step is done, or when dismissed;
 * the dismissal is kept in this browser for this admin (Merit has no per-user settings).
 */
export function SetupChecklist({ userId }: { userId: number }) {
  const [dismissed, setDismissed] = useState(() => readDismissed(userId));
  const status = useSetupStatus(!dismissed);
  // Only the invitation step needs them, and only once a committee exists.
  const committees = useCommitteeList();
  if (dismissed || !status.data) return null;
  const done = STEPS.filter((step) => status.data[step.key] > 0).length;
  if (done === STEPS.length) return null;

  const dismiss = () => {
    try {
      window.localStorage.setItem(dismissedKey(userId), 'yes');
    } catch {
      // Not kept: it shows again next time, which is no harm.
    }
    setDismissed(true);
  };

  return (
    <Section
      id="setup-checklist"
      title="Set up Merit for your committee"
      outlined
      actions={
        <Button size="small" onClick={dismiss}>
          Dismiss
        </Button>
      }
    >
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {`${done} of ${STEPS.length} steps done. Each step ticks itself when it is done.`}
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {STEPS.map((step) => {
          const complete = status.data[step.key] > 0;
          return (
            <Box
              component="li"
              key={step.key}
              sx={{ display: 'flex', gap: 1.5, py: 1.5, borderTop: 1, borderColor: 'divider' }}
            >
              {complete ? (
                <CheckCircleIcon color="success" aria-hidden sx={{ mt: 0.25 }} />
              ) : (
                <RadioButtonUncheckedIcon color="action" aria-hidden sx={{ mt: 0.25 }} />
              )}
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography component="h3" variant="subtitle1">
                    {step.title}
                  </Typography>
                  <Chip
                    size="small"
                    label={complete ? 'Done' : 'To do'}
                    color={complete ? 'success' : 'default'}
                    variant="outlined"
                  />
                </Stack>
                <Typography variant="body2" color="text.secondary" sx={{ my: 0.5 }}>
                  {step.text}
                </Typography>
                {step.key === 'people' &&
                  (committees.data?.length ? (
                    <InvitationLink committees={committees.data} />
                  ) : (
                    <Typography variant="body2">
                      The link names a committee: create one first.
                    </Typography>
                  ))}
                {step.key !== 'people' && (
                  <Button component={RouterLink} to={step.to} size="small" variant="outlined">
                    {step.linkLabel}
                  </Button>
                )}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Section>
  );
}
