/**
 * What a form's file field needs from the page around it (rjsf's `formContext`): the
 * proposal its file belongs to and the form it answers. Without it (the form builder's
 * preview) a file field cannot upload.
 */
export interface FileFieldContext {
  proposalId: number;
  formId: number;
}

export function fileFieldContext(formContext: unknown): FileFieldContext | null {
  if (typeof formContext !== 'object' || formContext === null) return null;
  const { proposalFiles } = formContext as { proposalFiles?: FileFieldContext };
  return proposalFiles ?? null;
}

/** The formContext that gives the file fields of a proposal's form their place. */
export const proposalFormContext = (proposalFiles: FileFieldContext) => ({ proposalFiles });
