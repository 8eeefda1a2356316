import { PageHeading } from '../../components/PageHeading';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { FormNamesTab } from '../../features/forms/FormNamesTab';
import { FormsTab } from '../../features/forms/FormsTab';

const TABS = [
  { value: 'forms', label: 'Forms' },
  { value: 'names', label: 'Form Names' },
] as const;

/** /forms/ (admin only): the Form Builder, with tabs Forms and Form Names. */
export default function FormBuilderPage() {
  return (
    <>
      <PageHeading>Form Builder</PageHeading>
      <SearchParamTabs label="Form Builder" tabs={TABS}>
        {(tab) => (tab === 'forms' ? <FormsTab /> : <FormNamesTab />)}
      </SearchParamTabs>
    </>
  );
}
