/**
 * A workspace library's filters (components/FilterBlock.tsx): title or author words, a tag, a type and
 * a year range, applied to the address (library-query.ts) so that a reload or Back shows them again.
 */
import { useEffect, type ReactNode } from 'react';
import { FilterBlock, type FilterField } from '../../../components/FilterBlock';
import { useZodForm } from '../../../lib/form';
import { describeYears } from '../../../lib/search-words';
import { LibraryFilterForm } from '../schemas';
import { LIBRARY_FILTERS, type LibraryFilters as Filters } from '../library-query';

const FIELDS: ReadonlyArray<FilterField<keyof Filters>> = [
  { kind: 'text', name: 'q', label: 'Title or author', maxLength: 200 },
  { kind: 'text', name: 'tag', label: 'Tag', maxLength: 50 },
  { kind: 'text', name: 'type', label: 'Type', maxLength: 50 },
  { kind: 'year', name: 'yearFrom', label: 'From year' },
  { kind: 'year', name: 'yearTo', label: 'To year' },
];

/** The active filters as phrases, for the bar's sentence. */
function describeLibraryFilters(filters: Filters): string[] {
  const years = describeYears(filters.yearFrom, filters.yearTo);
  return [
    filters.q && `Title or author: ${filters.q}`,
    filters.tag && `Tag: ${filters.tag}`,
    filters.type && `Type: ${filters.type}`,
    years,
  ].filter((phrase): phrase is string => Boolean(phrase));
}

const NO_FILTERS: Filters = { q: '', tag: '', type: '', yearFrom: '', yearTo: '' };

export function LibraryFilters({
  filters,
  onApply,
  children,
}: {
  filters: Filters;
  onApply: (filters: Filters) => void;
  children?: ReactNode;
}) {
  const form = useZodForm(LibraryFilterForm, { defaultValues: filters });
  const { reset } = form;
  // Back and Forward change the filters under the form: it shows the address's.
  const key = JSON.stringify(LIBRARY_FILTERS.map((name) => filters[name]));
  useEffect(() => {
    const [q = '', tag = '', type = '', yearFrom = '', yearTo = ''] = JSON.parse(key) as string[];
    reset({ q, tag, type, yearFrom, yearTo });
  }, [key, reset]);
  return (
    <FilterBlock
      label="Filter the resources"
      form={form}
      fields={FIELDS}
      active={describeLibraryFilters(filters)}
      onApply={onApply}
      onClear={() => onApply(NO_FILTERS)}
    >
      {children}
    </FilterBlock>
  );
}
