/**
 * The search filters: a "Filters" disclosure (compact on a phone) holding year range, type, venue and
 * "only with a free PDF"; the active filters read as one sentence next to it (the disclosure button is
 * described by it, so a screen reader hears them too) with "Clear filters". Applied filters live in the
 * URL like the query (search-state.ts), so back/forward restore them.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { TextField } from '../../../components/Field';
import { useZodForm } from '../../../lib/form';
import { SearchFilterForm } from '../schemas';
import {
  describeFilters,
  hasActiveFilters,
  NO_FILTERS,
  WORK_TYPE_LABELS,
  WORK_TYPES,
  type SearchFilters,
  type WorkType,
} from '../search-state';

function formValuesOf(filters: SearchFilters) {
  return {
    yearFrom: filters.yearFrom === null ? '' : String(filters.yearFrom),
    yearTo: filters.yearTo === null ? '' : String(filters.yearTo),
    type: filters.type ?? '',
    venue: filters.venue,
    hasPdf: filters.hasPdf,
  };
}

interface SearchFiltersBarProps {
  filters: SearchFilters;
  onApply: (filters: SearchFilters) => void;
  /** Shown first on the bar's row (the sort), so that a phone spends one row on both. */
  children?: ReactNode;
}

export function SearchFiltersBar({ filters, onApply, children }: SearchFiltersBarProps) {
  const panelId = useId();
  const summaryId = useId();
  const typeId = useId();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const form = useZodForm(SearchFilterForm, { defaultValues: formValuesOf(filters) });
  const { errors } = form.formState;
  const { reset } = form;
  // Back and Forward change the filters under the form: it shows the address's.
  const key = JSON.stringify(formValuesOf(filters));
  useEffect(() => {
    reset(JSON.parse(key) as ReturnType<typeof formValuesOf>);
  }, [key, reset]);

  const active = describeFilters(filters);
  const apply = form.handleSubmit((values) => {
    onApply({
      yearFrom: values.yearFrom === '' ? null : Number(values.yearFrom),
      yearTo: values.yearTo === '' ? null : Number(values.yearTo),
      hasPdf: values.hasPdf,
      type: WORK_TYPES.find((type) => type === values.type) ?? null,
      venue: values.venue,
    });
    setOpen(false);
    // The panel closes under the focused Apply button: focus goes back to what opened it, not to <body>.
    toggleRef.current?.focus();
  });
  return (
    <div className="search-filters">
      <div className="search-filters-bar">
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
        <p
          id={summaryId}
          className={active.length > 0 ? 'search-filters-summary' : 'visually-hidden'}
        >
          {active.length > 0 ? `Filtered: ${active.join(', ')}.` : 'No filters.'}
        </p>
        {hasActiveFilters(filters) && (
          <button type="button" className="button button-ghost" onClick={() => onApply(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
      <form
        id={panelId}
        hidden={!open}
        aria-label="Search filters"
        className="search-filters-panel"
        onSubmit={(event) => void apply(event)}
      >
        <TextField
          label="From year"
          inputMode="numeric"
          maxLength={4}
          {...form.register('yearFrom')}
          error={errors.yearFrom?.message}
        />
        <TextField
          label="To year"
          inputMode="numeric"
          maxLength={4}
          {...form.register('yearTo')}
          error={errors.yearTo?.message}
        />
        <div className="field">
          <label htmlFor={typeId}>Type</label>
          <select id={typeId} {...form.register('type')}>
            <option value="">Any type</option>
            {WORK_TYPES.map((type: WorkType) => (
              <option key={type} value={type}>
                {WORK_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label="Venue"
          maxLength={200}
          placeholder="Journal or conference"
          {...form.register('venue')}
          error={errors.venue?.message}
        />
        <div className="field field-checkbox">
          <label>
            <input type="checkbox" {...form.register('hasPdf')} /> Only with a free PDF
          </label>
        </div>
        <div className="row-actions search-filters-actions">
          <button type="submit" className="button button-primary">
            Apply filters
          </button>
        </div>
      </form>
    </div>
  );
}
