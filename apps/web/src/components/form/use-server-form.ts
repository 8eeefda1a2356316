import { messages, type FieldErrors } from '@merit/domain';
import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';
import { ApiError, errorMessages, isApiError } from '../../api/client';
import { loadContract, type SchemaPicker } from '../../api/contract';
import { fieldMessages } from './field-messages';

type Values = Record<string, string | boolean>;

/** The names of the fields of `V` that hold text (inputs, selects). */
export type TextFields<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;
/** The names of the fields of `V` that hold a flag (checkboxes). */
export type FlagFields<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V] & string;

interface CommonOptions<V extends Values, D, R> {
  initialValues: V;
  /**
   * Each field's label, also used to name it in error messages; add any other field the
   * server may report on (e.g. `captcha`).
   */
  labels: Record<keyof V & string, string> & Record<string, string>;
  /**
   * The domain's rules (@merit/domain), the same the server applies with the same words.
   * They show under each field the user has left (or once they try to submit), update
   * as they type, and stop a submit that the server would refuse.
   */
  validate?: (values: V) => FieldErrors;
  /** Completes the values before they are checked and sent (e.g. solves the captcha). */
  prepare?: (values: V) => Promise<V>;
  submit: (data: D) => Promise<R>;
  onSuccess?: (result: R, values: V) => void;
  /** Runs after a failed submit, whether the form's own checks or the server refused it. */
  onError?: (error: unknown) => void;
  /** Empty the fields after a success (passwords must not linger on screen). */
  resetOnSuccess?: boolean;
}

type SchemaOptions<V extends Values, D, R> = CommonOptions<V, D, R> & {
  /** The contract's request schema, the same shape the server accepts: `(c) => c.loginRequest`. */
  schema: SchemaPicker<z.ZodType<D, V>>;
};
type PlainOptions<V extends Values, R> = CommonOptions<V, V, R> & { schema?: undefined };

/** The input broke the rules before it was sent; shaped like the server's 400. */
function validationError(fields: FieldErrors): ApiError {
  return new ApiError(0, { detail: messages.validationFailed, code: 'validation_error', fields });
}

function issuesToFields(issues: z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.join('.');
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * What every form of spec section 8 shares: check the input (the domain's rules, the
 * contract's shape), send it, show the errors (its own or the server's `detail` and
 * `fields`) as one red list and each field's under it, and clear them as soon as the user
 * edits a field.
 */
export function useServerForm<V extends Values, D, R>(
  options: SchemaOptions<V, D, R>,
): ServerForm<V>;
export function useServerForm<V extends Values, R>(options: PlainOptions<V, R>): ServerForm<V>;
export function useServerForm<V extends Values, D, R>({
  schema,
  initialValues,
  labels,
  validate,
  prepare,
  submit,
  onSuccess,
  onError,
  resetOnSuccess = false,
}: SchemaOptions<V, D, R> | PlainOptions<V, R>): ServerForm<V> {
  const [values, setValues] = useState<V>(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const mutation = useMutation({
    mutationFn: async (input: V) => {
      const ready = prepare ? await prepare(input) : input;
      const problems = validate?.(ready) ?? {};
      // Not the domain's `hasErrors`: importing it would bring the shared chunk of every
      // validation rule into the login page, which has none.
      if (Object.keys(problems).length > 0) throw validationError(problems);
      if (!schema) return (submit as (data: V) => Promise<R>)(ready);
      const result = schema(await loadContract()).safeParse(ready);
      if (!result.success) throw validationError(issuesToFields(result.error.issues));
      return (submit as (data: D) => Promise<R>)(result.data);
    },
    onSuccess: (result: R, input: V) => {
      if (resetOnSuccess) {
        setValues(initialValues);
        setTouched(new Set());
        setSubmitted(false);
      }
      onSuccess?.(result, input);
    },
    onError,
  });

  const serverFields = isApiError(mutation.error) ? (mutation.error.body.fields ?? {}) : {};
  const liveProblems = validate?.(values) ?? {};
  /** The domain's messages for `name`, once the user has had a chance to fill it in. */
  const problemsOf = (name: string): string[] =>
    submitted || touched.has(name) ? (liveProblems[name] ?? []) : [];

  const setValue = <K extends keyof V & string>(name: K, value: V[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (mutation.isError) mutation.reset();
  };

  const touch = (name: string) =>
    setTouched((current) => (current.has(name) ? current : new Set(current).add(name)));

  /** Props for a text input or select bound to `name`. */
  const field = (name: TextFields<V>) => ({
    name,
    label: labels[name],
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValue(name, event.target.value as V[typeof name]),
    onBlur: () => touch(name),
    ...fieldMessages(problemsOf(name), serverFields[name]),
  });

  /** Props for a checkbox bound to `name`. */
  const checkbox = (name: FlagFields<V>) => ({
    name,
    checked: values[name] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setValue(name, event.target.checked as V[typeof name]),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!mutation.isPending) mutation.mutate(values);
  };

  return {
    values,
    setValue,
    field,
    checkbox,
    errors: mutation.isError ? errorMessages(mutation.error, labels) : [],
    error: mutation.isError ? mutation.error : null,
    onSubmit,
    isPending: mutation.isPending,
  };
}

/** The props `field` gives a text input or select. */
export interface FieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (
    event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>,
  ) => void;
  onBlur: () => void;
  error: boolean;
  /** The field's messages: the rules it breaks, and what the server said of it. */
  helperText: string | undefined;
}

/** The props `checkbox` gives a checkbox. */
export interface CheckboxProps {
  name: string;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

export interface ServerForm<V extends Values> {
  values: V;
  setValue: <K extends keyof V & string>(name: K, value: V[K]) => void;
  field: (name: TextFields<V>) => FieldProps;
  checkbox: (name: FlagFields<V>) => CheckboxProps;
  /** The red list above the form: empty until a submit fails, and again once the user edits. */
  errors: string[];
  /** The failure behind `errors`, to act on its `code`. */
  error: unknown;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  isPending: boolean;
}
