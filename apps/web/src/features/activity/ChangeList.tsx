import type { ActivityEntry } from '@merit/contract';
import { Box, Typography } from '@mui/material';
import { fieldChanges, NO_VALUE, type FieldChange } from './change-values';

const valueSx = { fontFamily: 'monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere' };

/**
 * The fields a row changed: `field: before → after` when both are short, a "Show values"
 * disclosure when one is long or has parts, and just the field's name when the reader may
 * not see its values.
 */
export function ChangeList({ changes }: { changes: ActivityEntry['changes'] }) {
  const fields = fieldChanges(changes);
  if (fields.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {NO_VALUE}
      </Typography>
    );
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {fields.map((change) => (
        <Box component="li" key={change.field} sx={{ mb: 0.25 }}>
          <FieldLine change={change} />
        </Box>
      ))}
    </Box>
  );
}

function FieldLine({ change }: { change: FieldChange }) {
  const name = (
    <Typography component="span" variant="body2" sx={{ fontWeight: 500 }}>
      {change.field}
    </Typography>
  );
  if (change.kind === 'name') return name;
  if (change.kind === 'inline')
    return (
      <Typography component="span" variant="body2">
        {name}
        {': '}
        {change.before !== null && (
          <>
            <Box component="span" sx={valueSx}>
              {change.before}
            </Box>
            {' → '}
          </>
        )}
        <Box component="span" sx={valueSx}>
          {change.after}
        </Box>
      </Typography>
    );
  return (
    <Box component="details" sx={{ '& > summary': { cursor: 'pointer' } }}>
      <Typography component="summary" variant="body2">
        {name} <span>Show values</span>
      </Typography>
      {change.before !== null && <LongValue label="Before" value={change.before} />}
      {change.after !== null && <LongValue label="After" value={change.after} />}
    </Box>
  );
}

function LongValue({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ mt: 0.5 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box
        component="pre"
        sx={{
          ...valueSx,
          m: 0,
          p: 1,
          maxHeight: 240,
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {value}
      </Box>
    </Box>
  );
}
