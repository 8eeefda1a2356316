import type { FormExample } from '@merit/contract';
import { FORM_TYPE_LABELS } from '@merit/domain';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, ListItemText, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { useFormExamples } from './forms.api';

/** "Load example": a menu of the server's ready-made forms (GET /form_examples/). */
export function LoadExampleButton({ onLoad }: { onLoad: (example: FormExample) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const examples = useFormExamples(anchor !== null);
  const id = useId();
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        variant="outlined"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? id : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Load example
      </Button>
      <Menu id={id} anchorEl={anchor} open={anchor !== null} onClose={close}>
        {examples.isPending && <MenuItem disabled>Loading examples…</MenuItem>}
        {examples.isError && (
          <MenuItem disabled sx={{ whiteSpace: 'normal', maxWidth: 360 }}>
            {errorMessages(examples.error).join(' ')}
          </MenuItem>
        )}
        {examples.data?.map((example) => (
          <MenuItem
            key={example.key}
            onClick={() => {
              close();
              onLoad(example);
            }}
          >
            <ListItemText primary={example.title} secondary={FORM_TYPE_LABELS[example.type]} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
