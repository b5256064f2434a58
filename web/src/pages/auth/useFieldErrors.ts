import { ApiError, describeError } from '../../api/errors';

/** The API's error split into the message for the field it names (if that is one of `fields`) and a form-level one. */
export function errorsByField<F extends string>(error: unknown, fields: readonly F[]): { field: Partial<Record<F, string>>; form: string | null } {
  if (!error) return { field: {}, form: null };
  if (error instanceof ApiError) {
    const named = error.details.fields?.filter((entry): entry is { field: F; reason: string } => (fields as readonly string[]).includes(entry.field)) ?? [];
    const field: Partial<Record<F, string>> = {};
    if (error.field && (fields as readonly string[]).includes(error.field)) field[error.field as F] = error.message;
    for (const entry of named) field[entry.field] ??= error.message;
    if (Object.keys(field).length > 0 && error.status !== 429) return { field, form: null };
  }
  return { field: {}, form: describeError(error) };
}
