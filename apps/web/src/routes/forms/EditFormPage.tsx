import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { draftOf } from '../../features/forms/form-draft';
import { FormEditor } from '../../features/forms/FormEditor';
import { useForm, useFormNames } from '../../features/forms/forms.api';

/** /forms/{formId}/ (admin only): the form editor for a saved form. */
export default function EditFormPage() {
  const formId = useIdParam('formId');
  if (formId === null) return <NotFoundView />;
  return <EditForm formId={formId} />;
}

function EditForm({ formId }: { formId: number }) {
  const form = useForm(formId);
  const formNames = useFormNames();
  if (form.isPending || formNames.isPending) return <LoadingView label="Loading the form…" />;
  if (form.isError)
    return <LoadFailedView error={form.error} onRetry={() => void form.refetch()} />;
  if (formNames.isError)
    return <LoadFailedView error={formNames.error} onRetry={() => void formNames.refetch()} />;
  return (
    <>
      <BackLink to="/forms">Form Builder</BackLink>
      <PageHeading>{`${form.data.display_name} · version ${form.data.version}`}</PageHeading>
      {/* Keyed: a different form (or the one just created) starts from its saved values. */}
      <FormEditor
        key={form.data.id}
        formNames={formNames.data}
        form={form.data}
        initial={draftOf(form.data)}
      />
    </>
  );
}
