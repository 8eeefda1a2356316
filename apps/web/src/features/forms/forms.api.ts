import type { FormNameSave, FormSave } from '@merit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

export const formKeys = {
  all: ['admin', 'forms'] as const,
  forms: ['admin', 'forms', 'list'] as const,
  form: (formId: number) => ['admin', 'forms', 'detail', formId] as const,
  names: ['admin', 'forms', 'names'] as const,
  examples: ['admin', 'forms', 'examples'] as const,
};

export function useFormList() {
  return useQuery({
    queryKey: formKeys.forms,
    queryFn: ({ signal }) => apiRequest('/forms/', { schema: (c) => c.formList, signal }),
  });
}

export function useForm(formId: number) {
  return useQuery({
    queryKey: formKeys.form(formId),
    queryFn: ({ signal }) => apiRequest(`/forms/?id=${formId}`, { schema: (c) => c.form, signal }),
  });
}

/** Creates (`isNew`, 201) or replaces an unused form (`formId`, 200). */
export function saveForm(body: FormSave) {
  return apiRequest('/forms/', { method: 'POST', body, schema: (c) => c.form });
}

export function deleteForm(id: number) {
  return apiRequest('/forms/', { method: 'DELETE', body: { id }, schema: noBody });
}

export function useFormNames() {
  return useQuery({
    queryKey: formKeys.names,
    queryFn: ({ signal }) => apiRequest('/form_names/', { schema: (c) => c.formNameList, signal }),
  });
}

/** Without `id` creates a form name; with it changes only the display name. */
export function saveFormName(body: FormNameSave) {
  return apiRequest('/form_names/', { method: 'POST', body, schema: (c) => c.formName });
}

export function deleteFormName(id: number) {
  return apiRequest('/form_names/', { method: 'DELETE', body: { id }, schema: noBody });
}

export function useFormExamples(enabled: boolean) {
  return useQuery({
    queryKey: formKeys.examples,
    queryFn: ({ signal }) =>
      apiRequest('/form_examples/', { schema: (c) => c.formExampleList, signal }),
    enabled,
    // The examples ship with the server: they do not change while the page is open.
    staleTime: Infinity,
  });
}
