import { EmptyState } from '../../components/EmptyState';
import { PageHeading } from '../../components/PageHeading';

/** /forms/ (admin only). */
export default function FormBuilderPage() {
  return (
    <>
      <PageHeading>Form Builder</PageHeading>
      <EmptyState>Proposal and review forms and their form names will appear here.</EmptyState>
    </>
  );
}
