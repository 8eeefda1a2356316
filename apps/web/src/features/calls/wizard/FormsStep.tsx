import {
  callMessages,
  FORM_TYPE_LABELS,
  isProposalForm,
  isReviewForm,
  MAX_LENGTHS,
  type FormType,
} from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Box,
  Button,
  FormHelperText,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { fieldMessages } from '../../../components/form/field-messages';
import { SelectInput } from '../../../components/form/SelectInput';
import { TextInput } from '../../../components/form/TextInput';
import {
  newTypeDraft,
  typesErrors,
  type CallDraft,
  type FormChoice,
  type TypeDraft,
} from './call-draft';

type FormKind = 'proposalForms' | 'reviewForms';

const KINDS: Record<
  FormKind,
  { title: string; singular: string; fits: (type: FormType) => boolean; empty: string }
> = {
  proposalForms: {
    title: 'Proposal forms',
    singular: 'proposal form',
    fits: isProposalForm,
    empty: callMessages.noProposalForm,
  },
  reviewForms: {
    title: 'Review forms',
    singular: 'review form',
    fits: isReviewForm,
    empty: callMessages.noReviewForm,
  },
};

export function formLabel(form: FormChoice | undefined, id: number): string {
  if (!form) return `Form ${id}`;
  return `${form.display_name} (version ${form.version})`;
}

interface FormsStepProps {
  draft: CallDraft;
  onChange: (patch: Partial<CallDraft>) => void;
  /** Every form the wizard knows: the catalogue and the forms the call already uses. */
  forms: readonly FormChoice[];
  /** Why the catalogue is missing, if it is. */
  catalogueError: string | null;
  /** The user tried to go on: every rule shows, not only those of names they left. */
  attempted: boolean;
  /** Fields the server refused on the last Finish, e.g. `proposalTypes.0.typeName`. */
  serverFields: Record<string, string[]>;
}

/** Page 1 of the wizard: proposal types, each with its ordered proposal and review forms. */
export function FormsStep({
  draft,
  onChange,
  forms,
  catalogueError,
  attempted,
  serverFields,
}: FormsStepProps) {
  const errors = typesErrors(draft, forms);
  const byId = new Map(forms.map((form) => [form.id, form]));
  const setTypes = (proposalTypes: TypeDraft[]) => onChange({ proposalTypes });
  const update = (index: number, patch: Partial<TypeDraft>) =>
    setTypes(draft.proposalTypes.map((type, i) => (i === index ? { ...type, ...patch } : type)));

  return (
    <Stack spacing={3}>
      {catalogueError && (
        <Alert severity="error">
          {`The list of forms could not be loaded, so no form can be added: ${catalogueError}`}
        </Alert>
      )}
      {draft.proposalTypes.length === 0 && <Alert severity="info">{callMessages.noTypes}</Alert>}
      {draft.proposalTypes.map((type, index) => (
        <TypeCard
          key={type.key}
          type={type}
          index={index}
          byId={byId}
          forms={forms}
          errors={errors}
          attempted={attempted}
          serverFields={serverFields}
          onChange={(patch) => update(index, patch)}
          onDelete={() => setTypes(draft.proposalTypes.filter((_, i) => i !== index))}
        />
      ))}
      <Box>
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => setTypes([...draft.proposalTypes, newTypeDraft()])}
        >
          Add proposal type
        </Button>
      </Box>
    </Stack>
  );
}

interface TypeCardProps {
  type: TypeDraft;
  index: number;
  byId: ReadonlyMap<number, FormChoice>;
  forms: readonly FormChoice[];
  errors: Record<string, string[]>;
  attempted: boolean;
  serverFields: Record<string, string[]>;
  onChange: (patch: Partial<TypeDraft>) => void;
  onDelete: () => void;
}

function TypeCard({
  type,
  index,
  byId,
  forms,
  errors,
  attempted,
  serverFields,
  onChange,
  onDelete,
}: TypeCardProps) {
  const headingId = useId();
  const [nameTouched, setNameTouched] = useState(false);
  const at = `proposalTypes.${index}`;
  const nameMessages = fieldMessages(
    attempted || nameTouched ? (errors[`${at}.typeName`] ?? []) : [],
    serverFields[`${at}.typeName`],
  );
  const title = type.typeName.trim() || `Proposal type ${index + 1}`;

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2.5 }}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2 }}
      >
        <Typography variant="h6" component="h2" id={headingId}>
          {title}
        </Typography>
        <Button
          color="error"
          startIcon={<DeleteIcon />}
          disabled={type.hasProposals}
          onClick={onDelete}
          aria-label={`Delete proposal type ${title}`}
        >
          Delete type
        </Button>
      </Stack>
      {type.hasProposals && (
        <Alert severity="info" icon={<LockIcon fontSize="inherit" />} sx={{ mb: 2 }}>
          {callMessages.typeHasProposals(type.savedName)}
        </Alert>
      )}
      <Box sx={{ maxWidth: 480, mb: 2 }}>
        <TextInput
          name={`${at}.typeName`}
          label="Type name"
          value={type.typeName}
          required
          maxLength={MAX_LENGTHS.proposalTypeName}
          onChange={(event) => onChange({ typeName: event.target.value })}
          onBlur={() => setNameTouched(true)}
          {...nameMessages}
        />
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={3}>
        {(['proposalForms', 'reviewForms'] as const).map((kind) => (
          <FormListEditor
            key={kind}
            kind={kind}
            typeTitle={title}
            ids={type[kind]}
            byId={byId}
            forms={forms}
            locked={
              kind === 'proposalForms'
                ? type.hasProposals && callMessages.proposalFormsLocked(type.savedName)
                : type.hasReviews && callMessages.reviewFormsLocked(type.savedName)
            }
            // A new type starts without forms: no mistake until the user tries to go on.
            problem={
              fieldMessages(
                attempted ? (errors[`${at}.${kind}`] ?? []) : [],
                serverFields[`${at}.${kind}`],
              ).helperText
            }
            onChange={(ids) => onChange({ [kind]: ids })}
          />
        ))}
      </Stack>
    </Paper>
  );
}

interface FormListEditorProps {
  kind: FormKind;
  typeTitle: string;
  ids: readonly number[];
  byId: ReadonlyMap<number, FormChoice>;
  forms: readonly FormChoice[];
  /** Why the list cannot change, or false. */
  locked: string | false;
  /** What is wrong with the list, shown below it. */
  problem: string | undefined;
  onChange: (ids: number[]) => void;
}

/** One ordered list of forms: add from a select, move up and down, remove. */
function FormListEditor({
  kind,
  typeTitle,
  ids,
  byId,
  forms,
  locked,
  problem,
  onChange,
}: FormListEditorProps) {
  const { title, singular, fits } = KINDS[kind];
  const headingId = useId();
  const [choice, setChoice] = useState('');
  const available = forms.filter((form) => fits(form.type) && !ids.includes(form.id));
  // Several entries may share a form (the catalogue and the call's own list).
  const options = [...new Map(available.map((form) => [form.id, form])).values()].map((form) => ({
    value: String(form.id),
    label: `${formLabel(form, form.id)} · ${FORM_TYPE_LABELS[form.type]}`,
  }));

  const move = (from: number, to: number) => {
    const next = [...ids];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  };

  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle1" component="h3" id={headingId} sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {locked && (
        <Alert severity="info" icon={<LockIcon fontSize="inherit" />} sx={{ my: 1 }}>
          {locked}
        </Alert>
      )}
      {ids.length > 0 ? (
        <List dense aria-labelledby={headingId} component="ol" sx={{ py: 0.5 }}>
          {ids.map((id, position) => {
            const name = formLabel(byId.get(id), id);
            return (
              <ListItem
                key={id}
                divider
                secondaryAction={
                  !locked && (
                    <Stack direction="row">
                      <IconButton
                        size="small"
                        aria-label={`Move ${name} up`}
                        disabled={position === 0}
                        onClick={() => move(position, position - 1)}
                      >
                        <ArrowUpwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={`Move ${name} down`}
                        disabled={position === ids.length - 1}
                        onClick={() => move(position, position + 1)}
                      >
                        <ArrowDownwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={`Remove ${name}`}
                        onClick={() => onChange(ids.filter((other) => other !== id))}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Stack>
                  )
                }
                sx={{ pr: locked ? 2 : 16 }}
              >
                <ListItemText
                  primary={`${position + 1}. ${name}`}
                  secondary={byId.get(id) ? FORM_TYPE_LABELS[byId.get(id)!.type] : undefined}
                />
              </ListItem>
            );
          })}
        </List>
      ) : (
        <Typography color="text.secondary" sx={{ my: 1 }}>
          {`No ${singular} yet.`}
        </Typography>
      )}
      {problem && (
        <FormHelperText error sx={{ mb: 1 }}>
          {problem}
        </FormHelperText>
      )}
      {!locked && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', mt: 1 }}>
          <SelectInput
            name={`${kind}-choice`}
            label={`Add a ${singular} to ${typeTitle}`}
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
            placeholder={options.length > 0 ? `Choose a ${singular}` : `No other ${singular}s`}
            options={options}
          />
          <Button
            variant="outlined"
            disabled={!choice}
            onClick={() => {
              onChange([...ids, Number(choice)]);
              setChoice('');
            }}
            aria-label={`Add the chosen ${singular} to ${typeTitle}`}
            sx={{ height: 56, flexShrink: 0 }}
          >
            Add
          </Button>
        </Stack>
      )}
    </Box>
  );
}
