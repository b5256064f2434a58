/**
 * The search filters (components/FilterBlock.tsx): year range, type, venue and "only with a free PDF".
 * Applied filters live in the URL like the query (search-state.ts), so back/forward restore them.
 */
import { useEffect, type ReactNode } from 'react';
import { FilterBlock, type FilterField } from '../../../components/FilterBlock';
import { useZodForm } from '../../../lib/form';
import { SearchFilterForm } from '../schemas';
import {
  describeFilters,
  MAX_VENUE_LENGTH,
  NO_FILTERS,
  WORK_TYPE_LABELS,
  WORK_TYPES,
  type SearchFilters,
} from '../search-state';

type FormValues = ReturnType<typeof formValuesOf>;

function formValuesOf(filters: SearchFilters) {
  return {
    yearFrom: filters.yearFrom === null ? '' : String(filters.yearFrom),
    yearTo: filters.yearTo === null ? '' : String(filters.yearTo),
    type: filters.type ?? '',
    venue: filters.venue,
    hasPdf: filters.hasPdf,
  };
}

const FIELDS: ReadonlyArray<FilterField<keyof FormValues>> = [
  { kind: 'year', name: 'yearFrom', label: 'From year' },
  { kind: 'year', name: 'yearTo', label: 'To year' },
  {
    kind: 'select',
    name: 'type',
    label: 'Type',
    options: [
      { value: '', label: 'Any type' },
      ...WORK_TYPES.map((type) => ({ value: type, label: WORK_TYPE_LABELS[type] })),
    ],
  },
  {
    kind: 'text',
    name: 'venue',
    label: 'Venue',
    maxLength: MAX_VENUE_LENGTH,
    placeholder: 'Journal or conference',
  },
  { kind: 'checkbox', name: 'hasPdf', label: 'Only with a free PDF' },
];

interface SearchFiltersBarProps {
  filters: SearchFilters;
  onApply: (filters: SearchFilters) => void;
  /** Shown first on the bar's row (the sort), so that a phone spends one row on both. */
  children?: ReactNode;
}

export function SearchFiltersBar({ filters, onApply, children }: SearchFiltersBarProps) {
  const form = useZodForm(SearchFilterForm, { defaultValues: formValuesOf(filters) });
  const { reset } = form;
  // Back and Forward change the filters under the form: it shows the address's.
  const key = JSON.stringify(formValuesOf(filters));
  useEffect(() => {
    reset(JSON.parse(key) as FormValues);
  }, [key, reset]);

  return (
    <FilterBlock
      label="Search filters"
      form={form}
      fields={FIELDS}
      active={describeFilters(filters)}
      onClear={() => onApply(NO_FILTERS)}
      onApply={(values) =>
        onApply({
          yearFrom: values.yearFrom === '' ? null : Number(values.yearFrom),
          yearTo: values.yearTo === '' ? null : Number(values.yearTo),
          hasPdf: values.hasPdf,
          type: WORK_TYPES.find((type) => type === values.type) ?? null,
          venue: values.venue,
        })
      }
    >
      {children}
    </FilterBlock>
  );
}
