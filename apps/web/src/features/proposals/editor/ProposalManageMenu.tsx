import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';

export type ProposalAction = 'collaborators' | 'submit' | 'retract' | 'delete';

const LABELS: Record<ProposalAction, string> = {
  collaborators: 'Manage Collaborators',
  submit: 'Submit Proposal',
  retract: 'Retract Proposal',
  delete: 'Delete Proposal',
};

/**
 * The Manage menu of the proposal editor (spec section 2): the actions the caller may
 * take, as the server's abilities say, in the spec's order. Nothing to offer, no menu.
 */
export function ProposalManageMenu({
  actions,
  onSelect,
}: {
  actions: readonly ProposalAction[];
  onSelect: (action: ProposalAction) => void;
}) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (actions.length === 0) return null;
  return (
    <>
      <Button
        id={`${id}-button`}
        variant="contained"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? `${id}-menu` : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Manage
      </Button>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {actions.map((action) => (
          <MenuItem
            key={action}
            onClick={() => {
              setAnchor(null);
              onSelect(action);
            }}
          >
            {LABELS[action]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
