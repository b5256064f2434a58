/**
 * A workspace's library: its resources as a compact table the server sorts, filters and pages (GET
 * …/resources), the resource chosen shown in full (ResourceItem: abstract, notes, annotations) in a
 * panel beside the table on wide screens and below it on narrow ones, and a selection of several to
 * tag, move or remove together. Sort, filters, page and the open resource live in the address
 * (library-query.ts), so a reload or Back shows the same list. The page fills three slots with other
 * features: `tools` beside the heading (actions on the whole library: import, add PDFs), `pdfCell` (a
 * row's PDF column), `detailTools` (more actions in the open resource's panel) and `selectionTools`
 * (more actions on the selection: Cite).
 */
import { CopyCiteButtons } from './CopyCiteButtons';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useProfileLanguage } from '../../../lib/profile';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { TextField } from '../../../components/Field';
import { useToast } from '../../../components/Toasts';
import { formatDay } from '../../../lib/dates';
import { useZodForm } from '../../../lib/form';
import { useAbilities } from '../../../lib/workspace-role';
import { BulkMoveDialog, BulkTagDialog } from './BulkDialogs';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import {
  apiQuery,
  defaultOrder,
  PAGE_SIZES,
  readLibraryState,
  writeLibraryState,
  type LibraryState,
  type Sort,
} from '../library-query';
import { ResourceItem } from './ResourceItem';
import { NewItemDialog } from './NewItemDialog';
import { firstAuthor } from '../record-fields';
import { LibraryFilterForm } from '../schemas';
import { useRemoveResources, useResourcePage, type Resource } from '../hooks/use-workspaces';
import '../../features.css';

const COLUMNS: Array<{ sort: Sort; label: string; className: string }> = [
  { sort: 'title', label: 'Title', className: 'col-title' },
  { sort: 'author', label: 'First author', className: 'col-author' },
  { sort: 'year', label: 'Year', className: 'col-year' },
  { sort: 'venue', label: 'Venue', className: 'col-venue' },
];

const FILTERS = ['q', 'tag', 'type', 'yearFrom', 'yearTo'] as const;

function SortHeader({
  column,
  state,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  state: LibraryState;
  onSort: (sort: Sort) => void;
}) {
  const active = state.sort === column.sort;
  const direction = state.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" className={column.className} aria-sort={active ? direction : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(column.sort)}>
        {column.label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (state.order === 'asc' ? ' ▲' : ' ▼') : ''}
        </span>
      </button>
    </th>
  );
}

function FilterForm({
  state,
  onApply,
}: {
  state: LibraryState;
  onApply: (filters: Pick<LibraryState, (typeof FILTERS)[number]>) => void;
}) {
  const current = {
    q: state.q,
    tag: state.tag,
    type: state.type,
    yearFrom: state.yearFrom,
    yearTo: state.yearTo,
  };
  const form = useZodForm(LibraryFilterForm, { defaultValues: current });
  const { errors } = form.formState;
  const { reset } = form;
  // Back and Forward change the filters under the form: it shows the address's.
  const key = JSON.stringify(current);
  useEffect(() => {
    reset(JSON.parse(key) as typeof current);
  }, [key, reset]);
  const filtered = FILTERS.some((name) => state[name] !== '');
  return (
    <form
      role="search"
      aria-label="Filter the resources"
      className="library-filters"
      onSubmit={(event) => void form.handleSubmit(onApply)(event)}
    >
      <TextField
        label="Title or author"
        type="search"
        maxLength={200}
        {...form.register('q')}
        error={errors.q?.message}
      />
      <TextField label="Tag" maxLength={50} {...form.register('tag')} error={errors.tag?.message} />
      <TextField
        label="Type"
        maxLength={50}
        {...form.register('type')}
        error={errors.type?.message}
      />
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
      <div className="row-actions library-filter-actions">
        <button type="submit" className="button button-primary">
          Filter
        </button>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => onApply({ q: '', tag: '', type: '', yearFrom: '', yearTo: '' })}
          >
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}

interface LibraryViewProps {
  workspaceId: string;
  resourceCount: number;
  tools?: ReactNode;
  pdfCell?: (resource: Resource) => ReactNode;
  detailTools?: (resource: Resource) => ReactNode;
  /** More actions on the selection (the ids chosen, in the order they were chosen). */
  selectionTools?: (resourceIds: string[]) => ReactNode;
}

export function LibraryView({
  workspaceId,
  resourceCount,
  tools,
  pdfCell,
  detailTools,
  selectionTools,
}: LibraryViewProps) {
  const [params, setParams] = useSearchParams();
  const state = readLibraryState(params);
  const page = useResourcePage(workspaceId, apiQuery(state));
  const toast = useToast();
  const remove = useRemoveResources(workspaceId);
  const language = useProfileLanguage();
  const captionId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const focusPanel = useRef(false);
  const [dialog, setDialog] = useState<'tag' | 'move' | 'remove' | 'new' | null>(null);
  const can = useAbilities();

  // The selection belongs to one list: another sort, filter or page starts a new one.
  const listKey = JSON.stringify({ ...apiQuery(state) });
  const [selection, setSelection] = useState<{ listKey: string; ids: string[] }>({
    listKey,
    ids: [],
  });
  const selected = selection.listKey === listKey ? selection.ids : [];
  const setSelected = (ids: string[]) => setSelection({ listKey, ids });

  const go = (changes: Partial<LibraryState>) =>
    setParams(writeLibraryState({ ...state, ...changes }));
  const rows = page.data?.resources ?? [];
  const total = page.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / state.size));
  // The resource chosen, or the first on the page (a reading pane is never empty while the list is not).
  const open = rows.find((resource) => resource.id === state.open) ?? rows[0] ?? null;

  // Focus goes to the panel when a resource is opened from the list (not when the page first shows one).
  useEffect(() => {
    if (focusPanel.current && open) {
      focusPanel.current = false;
      panelRef.current?.focus();
    }
  }, [open]);

  // A page past the end (its last resources removed or moved): the last page that has some.
  const pastTheEnd =
    page.data !== undefined &&
    !page.isPlaceholderData &&
    rows.length === 0 &&
    total > 0 &&
    state.page > pages;
  useEffect(() => {
    if (pastTheEnd) setParams(writeLibraryState({ ...state, page: pages }), { replace: true });
  });

  const backToList = () => {
    if (open) document.getElementById(`open-${open.id}`)?.focus();
  };

  const sortBy = (sort: Sort) =>
    go({
      sort,
      order: sort === state.sort ? (state.order === 'asc' ? 'desc' : 'asc') : defaultOrder(sort),
      page: 1,
    });
  const allOnPage = rows.length > 0 && rows.every((row) => selected.includes(row.id));
  const toggle = (id: string, on: boolean) =>
    setSelected(on ? [...selected, id] : selected.filter((each) => each !== id));
  const filtered = FILTERS.some((name) => state[name] !== '');
  const done = () => {
    setDialog(null);
    setSelected([]);
  };

  return (
    <section aria-labelledby={`${captionId}-heading`} className="library">
      <div className="library-head">
        <h2 id={`${captionId}-heading`}>
          Resources <span className="muted">({resourceCount})</span>
        </h2>
        {/* New item… first among the ways to add to the library (the page's tools follow it). */}
        <div className="row-actions">
          {can.edit && (
            <button type="button" className="button" onClick={() => setDialog('new')}>
              New item…
            </button>
          )}
          {tools}
        </div>
      </div>
      <FilterForm state={state} onApply={(filters) => go({ ...filters, page: 1 })} />
      <div className="library-selection" aria-label="Selection">
        <p aria-live="polite" className="muted">
          {selected.length === 0 ? 'None selected' : `${selected.length} selected`}
        </p>
        <div className="row-actions">
          {can.edit && (
            <>
              <button
                type="button"
                className="button button-small"
                disabled={selected.length === 0}
                onClick={() => setDialog('tag')}
              >
                Tag selected…
              </button>
              <button
                type="button"
                className="button button-small"
                disabled={selected.length === 0}
                onClick={() => setDialog('move')}
              >
                Move selected…
              </button>
              <button
                type="button"
                className="button button-small button-danger"
                disabled={selected.length === 0}
                onClick={() => setDialog('remove')}
              >
                Remove selected…
              </button>
            </>
          )}
          <CopyCiteButtons
            keys={rows
              .filter((resource) => selected.includes(resource.id))
              .map((resource) => resource.citationKey)}
          />
          {selectionTools?.(selected)}
          {selected.length > 0 && (
            <button type="button" className="button button-small" onClick={() => setSelected([])}>
              Clear selection
            </button>
          )}
        </div>
      </div>
      <div className="library-layout">
        <div className="library-list">
          {page.isPending && <LoadingState label="Loading the resources…" />}
          {page.isError && <ErrorState error={page.error} onRetry={() => void page.refetch()} />}
          {page.data && total === 0 && !filtered && (
            <EmptyState title="Nothing saved here yet">
              <Link to="/dashboard">Search</Link> and press Save on a result.
            </EmptyState>
          )}
          {page.data && total === 0 && filtered && (
            <EmptyState title="No resources match these filters">
              <button
                type="button"
                className="button"
                onClick={() => go({ q: '', tag: '', type: '', yearFrom: '', yearTo: '', page: 1 })}
              >
                Clear filters
              </button>
            </EmptyState>
          )}
          {page.data && total > 0 && (
            <>
              <table
                className="table library-table"
                aria-describedby={`${captionId}-caption`}
                aria-busy={page.isPlaceholderData || undefined}
              >
                <caption id={`${captionId}-caption`} className="visually-hidden">
                  Resources of this workspace, page {state.page} of {pages}; choose a title to see
                  it in full
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className="col-select">
                      <input
                        type="checkbox"
                        aria-label="Select all on this page"
                        checked={allOnPage}
                        onChange={(event) =>
                          setSelected(event.target.checked ? rows.map((row) => row.id) : [])
                        }
                      />
                    </th>
                    {COLUMNS.map((column) => (
                      <SortHeader key={column.sort} column={column} state={state} onSort={sortBy} />
                    ))}
                    <th scope="col" className="col-tags">
                      Tags
                    </th>
                    <th scope="col" className="col-pdf">
                      PDF
                    </th>
                    <SortHeader
                      column={{ sort: 'added', label: 'Added', className: 'col-added' }}
                      state={state}
                      onSort={sortBy}
                    />
                  </tr>
                </thead>
                <tbody>
                  {rows.map((resource) => {
                    const isOpen = open?.id === resource.id;
                    return (
                      <tr key={resource.id} className={isOpen ? 'row-open' : undefined}>
                        <td className="col-select">
                          <input
                            type="checkbox"
                            aria-label={`Select ${resource.title}`}
                            checked={selected.includes(resource.id)}
                            onChange={(event) => toggle(resource.id, event.target.checked)}
                          />
                        </td>
                        <td className="col-title">
                          <Link
                            id={`open-${resource.id}`}
                            to={{
                              search: writeLibraryState({ ...state, open: resource.id }).toString(),
                            }}
                            aria-current={isOpen ? 'true' : undefined}
                            onClick={() => {
                              // Already open: the effect will not run again, so focus it here.
                              if (isOpen) panelRef.current?.focus();
                              else focusPanel.current = true;
                            }}
                          >
                            {resource.title}
                          </Link>
                          <code className="citation-key" aria-label="Citation key">
                            {resource.citationKey}
                          </code>
                        </td>
                        {/* The record's own fields: a change in the item pane shows here at once. */}
                        <td className="col-author">
                          {firstAuthor(resource.creators, resource.authors)}
                        </td>
                        <td className="col-year">{resource.issued?.year ?? resource.year ?? ''}</td>
                        <td className="col-venue">
                          {resource.containerTitle ?? resource.venue ?? ''}
                        </td>
                        <td className="col-tags">
                          {resource.tags.length > 0 && (
                            <ul className="badges" aria-label="Tags">
                              {resource.tags.map((tag) => (
                                <li key={tag} className="badge">
                                  {tag}
                                </li>
                              ))}
                            </ul>
                          )}
                        </td>
                        <td className="col-pdf">{pdfCell?.(resource)}</td>
                        <td className="col-added">
                          <time dateTime={resource.addedAt}>
                            {formatDay(resource.addedAt, language)}
                          </time>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <nav aria-label="Pages" className="library-pages">
                <button
                  type="button"
                  className="button button-small"
                  disabled={state.page <= 1}
                  onClick={() => go({ page: state.page - 1 })}
                >
                  Previous page
                </button>
                <p aria-live="polite">
                  Page {Math.min(state.page, pages)} of {pages} · {total}{' '}
                  {total === 1 ? 'resource' : 'resources'}
                </p>
                <button
                  type="button"
                  className="button button-small"
                  disabled={state.page >= pages}
                  onClick={() => go({ page: state.page + 1 })}
                >
                  Next page
                </button>
                <div className="field-inline">
                  <label htmlFor={`${captionId}-size`}>Per page</label>
                  <select
                    id={`${captionId}-size`}
                    value={state.size}
                    onChange={(event) => go({ size: Number(event.target.value), page: 1 })}
                  >
                    {PAGE_SIZES.map((size) => (
                      <option key={size} value={size}>
                        {size}
                      </option>
                    ))}
                  </select>
                </div>
              </nav>
            </>
          )}
        </div>
        {open && (
          <section
            ref={panelRef}
            tabIndex={-1}
            className="library-detail"
            aria-label={`Details: ${open.title}`}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && event.target === event.currentTarget) backToList();
            }}
          >
            <ResourceItem key={open.id} resource={open} workspaceId={workspaceId} />
            {detailTools?.(open)}
            <p>
              <button type="button" className="button button-small" onClick={backToList}>
                Back to the list
              </button>
            </p>
          </section>
        )}
      </div>
      <NewItemDialog
        open={dialog === 'new'}
        workspaceId={workspaceId}
        onClose={() => setDialog(null)}
        onCreated={(resourceId) => {
          setDialog(null);
          // Newest first, unfiltered: the new item is the list's first row, open in the pane.
          focusPanel.current = true;
          setParams(
            writeLibraryState({
              ...state,
              q: '',
              tag: '',
              type: '',
              yearFrom: '',
              yearTo: '',
              sort: 'added',
              order: 'desc',
              page: 1,
              open: resourceId,
            }),
          );
        }}
      />
      <BulkTagDialog
        open={dialog === 'tag'}
        workspaceId={workspaceId}
        resourceIds={selected}
        onClose={() => setDialog(null)}
        onDone={done}
      />
      <BulkMoveDialog
        open={dialog === 'move'}
        workspaceId={workspaceId}
        resourceIds={selected}
        onClose={() => setDialog(null)}
        onDone={done}
      />
      <ConfirmDialog
        open={dialog === 'remove'}
        title={`Remove ${selected.length} ${selected.length === 1 ? 'resource' : 'resources'}?`}
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error}
        onCancel={() => {
          remove.reset();
          setDialog(null);
        }}
        onConfirm={() =>
          remove.mutate(selected, {
            onSuccess: (reply) => {
              toast(
                `Removed ${reply.removed.length} ${reply.removed.length === 1 ? 'resource' : 'resources'}`,
              );
              done();
            },
          })
        }
      >
        Their notes and annotations are removed too. This cannot be undone.
      </ConfirmDialog>
    </section>
  );
}
