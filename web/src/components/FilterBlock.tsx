/**
 * The filters of a list, one block for every list that has them (search results, the library search, a
 * workspace's library): a `Filters` disclosure (a phone spends one row on it), the active filters read
 * as one sentence beside it (the disclosure button is described by it, so a screen reader hears them
 * too) with `Clear filters`, and the form it opens with the fields each list names and `Apply filters`.
 * Each list keeps its own schema (react-hook-form with zod), its own fields and where applied filters
 * live (the address); this block only draws them. After Apply, the panel closes and the focus goes back
 * to the button that opened it, not to <body>.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { TextField } from './Field';

/** One field of the panel: a text box (a year is one of four digits), a choice, or a checkbox. */
export type FilterField<Name extends string> =
  | { kind: 'text'; name: Name; label: string; maxLength: number; placeholder?: string }
  | { kind: 'year'; name: Name; label: string }
  | {
      kind: 'select';
      name: Name;
      label: string;
      options: ReadonlyArray<{ value: string; label: string }>;
    }
  | { kind: 'checkbox'; name: Name; label: string };

interface FilterBlockProps<Values extends FieldValues, Output> {
  /** The form's accessible name ("Search filters", "Filter the resources"). */
  label: string;
  form: UseFormReturn<Values, unknown, Output>;
  fields: ReadonlyArray<FilterField<FieldPath<Values>>>;
  /** The active filters in words ("from 2020", "tag nlp"); empty when none. */
  active: readonly string[];
  /** Called with the form's values once they pass its schema. */
  onApply: (values: Output) => void;
  onClear: () => void;
  /** Shown first on the bar's row (a sort), so that a phone spends one row on both. */
  children?: ReactNode;
}

/**
 * A choice, controlled by the form's value: its options may arrive after the value (the user's
 * workspaces), and a controlled select takes the value once its option is there.
 */
function SelectFilter<Values extends FieldValues, Output>({
  form,
  name,
  label,
  options,
}: {
  form: UseFormReturn<Values, unknown, Output>;
  name: FieldPath<Values>;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  const id = useId();
  const value: unknown = form.watch(name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...form.register(name)} value={typeof value === 'string' ? value : ''}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function FilterBlock<Values extends FieldValues, Output>({
  label,
  form,
  fields,
  active,
  onApply,
  onClear,
  children,
}: FilterBlockProps<Values, Output>) {
  const panelId = useId();
  const summaryId = useId();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const apply = form.handleSubmit((values) => {
    onApply(values);
    setOpen(false);
    toggleRef.current?.focus();
  });
  const errorOf = (name: FieldPath<Values>) =>
    form.getFieldState(name, form.formState).error?.message;
  return (
    <div className="filter-block">
      <div className="filter-bar">
        {children}
        <button
          ref={toggleRef}
          type="button"
          className="button"
          aria-expanded={open}
          aria-controls={panelId}
          aria-describedby={summaryId}
          onClick={() => setOpen((was) => !was)}
        >
          Filters{active.length > 0 ? ` (${active.length})` : ''}
        </button>
        {/* Without filters the sentence is for screen readers only: the row has no room to spare on a phone. */}
        <p id={summaryId} className={active.length > 0 ? 'filter-summary' : 'visually-hidden'}>
          {active.length > 0 ? `Filtered: ${active.join(', ')}.` : 'No filters.'}
        </p>
        {active.length > 0 && (
          <button type="button" className="button button-ghost" onClick={onClear}>
            Clear filters
          </button>
        )}
      </div>
      <form
        id={panelId}
        hidden={!open}
        aria-label={label}
        className="filter-panel"
        noValidate
        onSubmit={(event) => void apply(event)}
      >
        {fields.map((field) => {
          switch (field.kind) {
            case 'text':
              return (
                <TextField
                  key={field.name}
                  label={field.label}
                  maxLength={field.maxLength}
                  placeholder={field.placeholder}
                  {...form.register(field.name)}
                  error={errorOf(field.name)}
                />
              );
            case 'year':
              return (
                <TextField
                  key={field.name}
                  label={field.label}
                  inputMode="numeric"
                  maxLength={4}
                  {...form.register(field.name)}
                  error={errorOf(field.name)}
                />
              );
            case 'select':
              return (
                <SelectFilter
                  key={field.name}
                  form={form}
                  name={field.name}
                  label={field.label}
                  options={field.options}
                />
              );
            case 'checkbox':
              return (
                <div key={field.name} className="field field-checkbox">
                  <label>
                    <input type="checkbox" {...form.register(field.name)} /> {field.label}
                  </label>
                </div>
              );
          }
        })}
        <div className="row-actions filter-actions">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
        </div>
      </form>
    </div>
  );
}
