import { messages } from '@merit/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';
import { ApiError, errorMessages, isApiError } from '../../api/client';
import { loadContract, type SchemaPicker } from '../../api/contract';

type Values = Record<string, string>;

interface ServerFormOptions<V extends Values, D, R> {
  /** The contract's request schema, the same rules the server applies: `(c) => c.loginRequest`. */
  schema: SchemaPicker<z.ZodType<D, V>>;
  initialValues: V;
  /** Each field's label, also used to name it in error messages. */
  labels: Record<keyof V & string, string>;
  submit: (data: D) => Promise<R>;
  onSuccess?: (result: R) => void;
  /** Empty the fields after a success (passwords must not linger on screen). */
  resetOnSuccess?: boolean;
}

/** The input broke the contract's rules before it was sent; shaped like the server's 400. */
function validationError(issues: z.core.$ZodIssue[]): ApiError {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.join('.');
    (fields[key] ??= []).push(issue.message);
  }
  return new ApiError(0, { detail: messages.validationFailed, code: 'validation_error', fields });
}

/**
 * What every form of spec section 8 shares: check the input with the contract's
 * schema, send it, show the errors (its own or the server's `detail` and `fields`)
 * as one red list, and clear them as soon as the user edits a field.
 */
export function useServerForm<V extends Values, D, R>({
  schema,
  initialValues,
  labels,
  submit,
  onSuccess,
  resetOnSuccess = false,
}: ServerFormOptions<V, D, R>) {
  const [values, setValues] = useState<V>(initialValues);
  const mutation = useMutation({
    mutationFn: async (input: V) => {
      const result = schema(await loadContract()).safeParse(input);
      if (!result.success) throw validationError(result.error.issues);
      return submit(result.data);
    },
    onSuccess: (result: R) => {
      if (resetOnSuccess) setValues(initialValues);
      onSuccess?.(result);
    },
  });

  const invalidFields = isApiError(mutation.error) ? (mutation.error.body.fields ?? {}) : {};

  const setValue = (name: keyof V & string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (mutation.isError) mutation.reset();
  };

  /** Props for a text input bound to `name`. */
  const field = (name: keyof V & string) => ({
    name,
    label: labels[name],
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValue(name, event.target.value),
    error: Boolean(invalidFields[name]),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!mutation.isPending) mutation.mutate(values);
  };

  return {
    values,
    setValue,
    field,
    errors: mutation.isError ? errorMessages(mutation.error, labels) : [],
    onSubmit,
    isPending: mutation.isPending,
  };
}
