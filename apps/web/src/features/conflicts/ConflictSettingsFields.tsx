import { conflictScreenMessages } from '@merit/domain';
import { Box, Checkbox, FormControlLabel, FormHelperText } from '@mui/material';
import { useId } from 'react';

interface ConflictSettingsFieldsProps {
  enabled: boolean;
  declarationRequired: boolean;
  onChange: (patch: { conflictsEnabled?: boolean; declarationRequired?: boolean }) => void;
}

/**
 * The call wizard's conflict settings (page 0): whether the call records and enforces
 * conflicts of interest, and whether members declare theirs before a proposal opens for
 * them, which means nothing without the first.
 */
export function ConflictSettingsFields({
  enabled,
  declarationRequired,
  onChange,
}: ConflictSettingsFieldsProps) {
  const id = useId();
  return (
    <Box role="group" aria-label="Conflicts of interest">
      <FormControlLabel
        control={
          <Checkbox
            name="conflictsEnabled"
            checked={enabled}
            onChange={(event) => onChange({ conflictsEnabled: event.target.checked })}
            slotProps={{ input: { 'aria-describedby': `${id}-enabled` } }}
          />
        }
        label="Record and enforce conflicts of interest"
      />
      <FormHelperText id={`${id}-enabled`} sx={{ mt: -0.5, ml: 4, mb: 1 }}>
        {conflictScreenMessages.settingEnabledHelp}
      </FormHelperText>
      <FormControlLabel
        control={
          <Checkbox
            name="declarationRequired"
            checked={enabled && declarationRequired}
            disabled={!enabled}
            onChange={(event) => onChange({ declarationRequired: event.target.checked })}
            slotProps={{ input: { 'aria-describedby': `${id}-declaration` } }}
          />
        }
        label="Members declare conflicts before reading a proposal"
      />
      <FormHelperText id={`${id}-declaration`} sx={{ mt: -0.5, ml: 4 }}>
        {conflictScreenMessages.settingDeclarationHelp}
      </FormHelperText>
    </Box>
  );
}
