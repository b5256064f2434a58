/**
 * Forms: react-hook-form checked by a zod schema (zod/mini: the same checks, a fraction of the
 * bytes in the first page's JavaScript). A form checks itself on submit and then on every change,
 * moves focus to the first field at fault, and shows the API's answer at the field it names.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { ApiError, describeError } from '../api/errors';

/** The form-level message (the API's error that names no field of the form) lives under this key. */
const SERVER = 'root.server' as const;

export function useZodForm<Input extends FieldValues, Output>(
  schema: $ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({ resolver: zodResolver(schema), ...options });
}

/**
 * The API's error split into messages for the fields it names (those among `fields`) and a form-level
 * one. A rate limit is always the form's: it concerns no field, whatever the body named.
 */
export function errorsByField<F extends string>(
  error: unknown,
  fields: readonly F[],
  messageOf: (error: ApiError) => string = describeError,
): { field: Partial<Record<F, string>>; form: string | null } {
  if (!error) return { field: {}, form: null };
  if (error instanceof ApiError) {
    const known = (name: string | undefined): name is F =>
      name !== undefined && (fields as readonly string[]).includes(name);
    const field: Partial<Record<F, string>> = {};
    if (known(error.field)) field[error.field] = messageOf(error);
    for (const entry of error.details.fields ?? [])
      if (known(entry.field)) field[entry.field] ??= messageOf(error);
    if (Object.keys(field).length > 0 && error.status !== 429) return { field, form: null };
  }
  return { field: {}, form: describeError(error) };
}

/**
 * Where a failed request's message goes: the form's fields the API may name (a message naming none of
 * them is the form's), or `{ allAt: field }` for a form of one field, where every message is that field's.
 */
type ErrorPlaces<Input extends FieldValues> = readonly Path<Input>[] | { allAt: Path<Input> };

/** The forms (by their react-hook-form control, the same object for a form's whole life) with a submit under way. */
const submitting = new WeakSet<object>();

/**
 * `form.handleSubmit(handle)`, but a submit while the form's last one is still under way is ignored: a
 * double click (or Enter pressed twice) sends once, whether or not the button has been disabled yet
 * (checking the form is asynchronous, so the second click can come before the first request starts).
 */
export function submitOnce<Input extends FieldValues, Output>(
  form: UseFormReturn<Input, unknown, Output>,
  handle: (values: Output) => Promise<unknown>,
) {
  const submit = form.handleSubmit(async (values) => {
    await handle(values);
  });
  return async (event?: { preventDefault: () => void }) => {
    if (submitting.has(form.control)) {
      event?.preventDefault();
      return;
    }
    submitting.add(form.control);
    try {
      await submit(event as Parameters<typeof submit>[0]);
    } finally {
      submitting.delete(form.control);
    }
  };
}

/**
 * A submit handler: the values the schema accepted go to `send`; if it fails, the API's message is set
 * on the field it belongs to (focused) or as the form's message (`formError`). A second submit while
 * one is under way is ignored (`submitOnce`).
 */
export function submitWith<Input extends FieldValues, Output>(
  form: UseFormReturn<Input, unknown, Output>,
  places: ErrorPlaces<Input>,
  send: (values: Output) => Promise<unknown>,
  messageOf?: (error: ApiError) => string,
) {
  return submitOnce(form, async (values) => {
    try {
      await send(values);
    } catch (error) {
      showApiError(form, error, places, messageOf);
    }
  });
}

/** Puts a failed request's message where it belongs: at the fields it names (the first focused), else on the form. */
export function showApiError<Input extends FieldValues, Output>(
  form: UseFormReturn<Input, unknown, Output>,
  error: unknown,
  places: ErrorPlaces<Input>,
  messageOf?: (error: ApiError) => string,
): void {
  if ('allAt' in places) {
    form.setError(
      places.allAt,
      {
        type: 'server',
        message: error instanceof ApiError && messageOf ? messageOf(error) : describeError(error),
      },
      { shouldFocus: true },
    );
    return;
  }
  const split = errorsByField(error, places, messageOf);
  const named = Object.entries(split.field) as Array<[Path<Input>, string]>;
  named.forEach(([name, message], index) =>
    form.setError(name, { type: 'server', message }, { shouldFocus: index === 0 }),
  );
  if (split.form) form.setError(SERVER, { type: 'server', message: split.form });
}

/** The form-level message set by showApiError, if any (cleared when the form is submitted again). */
export function formError<Input extends FieldValues, Output>(
  form: UseFormReturn<Input, unknown, Output>,
): string | undefined {
  return form.formState.errors.root?.server?.message;
}

/** A `register(name, { onChange })` handler that keeps what the user types as the field's draft (lib/drafts.ts). */
export function keepDraft(draft: { keep: (value: string) => void }) {
  return (event: { target: { value: string } }) => draft.keep(event.target.value);
}
