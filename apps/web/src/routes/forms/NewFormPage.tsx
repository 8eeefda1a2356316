import { useLocation } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { newDraft, type FormDraft } from '../../features/forms/form-draft';
import { FormEditor } from '../../features/forms/FormEditor';
import { useFormNames } from '../../features/forms/forms.api';

/** A draft handed over by "Create a new version" of a form in use, if any. */
function copiedDraft(state: unknown): FormDraft | null {
  if (typeof state !== 'object' || state === null || !('copy' in state)) return null;
  const copy = state.copy as Partial<FormDraft> | null;
  if (typeof copy !== 'object' || copy === null) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    ...newDraft(),
    formNameId: text(copy.formNameId),
    version: text(copy.version),
    jsonSchema: text(copy.jsonSchema),
    uiSchema: text(copy.uiSchema),
    initialData: text(copy.initialData),
    options: copy.options ?? null,
  };
}

/** /forms/new (admin only): the form editor for a new form. */
export default function NewFormPage() {
  const formNames = useFormNames();
  const location = useLocation();
  if (formNames.isPending) return <LoadingView label="Loading form names…" />;
  if (formNames.isError)
    return <LoadFailedView error={formNames.error} onRetry={() => void formNames.refetch()} />;
  const copy = copiedDraft(location.state);
  return (
    <>
      <BackLink to="/forms">Form Builder</BackLink>
      <PageHeading>New Form</PageHeading>
      <FormEditor formNames={formNames.data} initial={copy ?? newDraft()} />
    </>
  );
}
