import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import { Box } from '@mui/material';

/**
 * Beside a tab's or an entry's name: a warning sign while it holds errors, a dot while it
 * has unsaved changes. Each icon's title says what it means, to a screen reader (as part
 * of the tab's name) and to a mouse (as a tooltip).
 */
export function ChangeMarks({ unsaved, errors }: { unsaved: boolean; errors: boolean }) {
  if (!unsaved && !errors) return null;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: 1 }}>
      {errors && <ErrorOutlineIcon color="error" fontSize="small" titleAccess="Has errors" />}
      {unsaved && (
        <FiberManualRecordIcon
          color="warning"
          sx={{ fontSize: 12 }}
          titleAccess="Unsaved changes"
        />
      )}
    </Box>
  );
}
