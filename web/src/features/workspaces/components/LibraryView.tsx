/**
 * A workspace's library in Zotero's three panes: the user's workspaces (WorkspacesPane, from 1,200 px),
 * its resources as a compact table the server sorts, filters and pages (GET …/resources), one line a
 * row, with the columns and their widths the user chose (library-columns.ts, kept per user), and the
 * resource chosen shown in full (ResourceItem: the item pane, abstract, notes, annotations) in the
 * third pane on wide screens and below the list on narrow ones; and a selection of several to tag,
 * move or remove together. Sort, filters, page and the open resource live in the address
 * (library-query.ts), so a reload or Back shows the same list. The page fills three slots with other
 * features: `tools` beside the heading (actions on the whole library: import, add PDFs), `pdfCell` (a
 * row's PDF column), `detailTools` (more actions in the open resource's panel) and `selectionTools`
 * (more actions on the selection: Cite). `Duplicate items` beside them leads to the duplicates view
 * (with their count when there are some).
 */
import { CopyCiteButtons } from './CopyCiteButtons';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useReaderLocale } from '../../../lib/profile';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States';
import { useToast } from '../../../components/Toasts';
import { formatDay } from '../../../lib/dates';
import { workTypeLabel } from '../../../lib/work-types';
import { useAbilities } from '../../../lib/workspace-role';
import { BulkMoveDialog, BulkTagDialog } from './BulkDialogs';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import {
  apiQuery,
  defaultOrder,
  LIBRARY_FILTERS,
  PAGE_SIZES,
  readLibraryState,
  writeLibraryState,
  type LibraryState,
  type Sort,
} from '../library-query';
import { ResourceItem } from './ResourceItem';
import { NewItemDialog } from './NewItemDialog';
import { DuplicatesLink } from './DuplicatesLink';
import { firstAuthor } from '../record-fields';
import {
  MIN_TITLE_WIDTH,
  visibleColumns,
  withColumnWidth,
  type ColumnDefinition,
} from '../library-columns';
import { useLibraryColumns } from '../hooks/use-library-columns';
import { ColumnChooser } from './ColumnChooser';
import { ColumnResizer } from './ColumnResizer';
import { LibraryFilters } from './LibraryFilters';
import { WorkspacesPane } from './WorkspacesPane';
import { useRemoveResources, useResourcePage, type Resource } from '../hooks/use-workspaces';
import '../../features.css';

const NO_FILTERS = { q: '', tag: '', type: '', yearFrom: '', yearTo: '' };

/** A column's header: its sort button (when the server sorts by it) and the handle that resizes it. */
function ColumnHeader({
  column,
  state,
  onSort,
  width,
  onResize,
}: {
  column: ColumnDefinition;
  state: LibraryState;
  onSort: (sort: Sort) => void;
  width: number | null;
  onResize: (width: number) => void;
}) {
  const labelId = useId();
  const active = column.sort !== undefined && state.sort === column.sort;
  const direction = state.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th
      scope="col"
      className={`col-${column.id}`}
      aria-sort={active ? direction : undefined}
      // Named by its label alone, not by the resize handle inside it.
      aria-labelledby={labelId}
    >
      {column.sort ? (
        <button
          id={labelId}
          type="button"
          className="sort-button"
          onClick={() => column.sort && onSort(column.sort)}
        >
          {column.label}
          <span aria-hidden="true" className="sort-mark">
            {active ? (state.order === 'asc' ? ' ▲' : ' ▼') : ''}
          </span>
        </button>
      ) : (
        <span id={labelId}>{column.label}</span>
      )}
      {column.id !== 'title' && width !== null && (
        <ColumnResizer column={column.id} label={column.label} width={width} onResize={onResize} />
      )}
    </th>
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
  const language = useReaderLocale();
  const captionId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const focusPanel = useRef(false);
  const [dialog, setDialog] = useState<'tag' | 'move' | 'remove' | 'new' | null>(null);
  const can = useAbilities();
  const columns = useLibraryColumns();
  const shown = visibleColumns(columns.settings);

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
  const filtered = LIBRARY_FILTERS.some((name) => state[name] !== '');
  const done = () => {
    setDialog(null);
    setSelected([]);
  };

  const widthOf = (column: ColumnDefinition) =>
    column.id === 'title' ? null : columns.settings.widths[column.id];
  // Past its columns' widths the table scrolls sideways inside its pane; the title keeps some room.
  const tableMinWidth =
    shown.reduce((sum, column) => sum + (widthOf(column) ?? MIN_TITLE_WIDTH), 0) + 36;
  const cellOf = (column: ColumnDefinition, resource: Resource, isOpen: boolean): ReactNode => {
    switch (column.id) {
      case 'title':
        return (
          <Link
            id={`open-${resource.id}`}
            to={{ search: writeLibraryState({ ...state, open: resource.id }).toString() }}
            aria-current={isOpen ? 'true' : undefined}
            onClick={() => {
              // Already open: the effect will not run again, so focus it here.
              if (isOpen) panelRef.current?.focus();
              else focusPanel.current = true;
            }}
          >
            {resource.title}
          </Link>
        );
      case 'key':
        return <code className="citation-key">{resource.citationKey}</code>;
      // The record's own fields: a change in the item pane shows here at once.
      case 'author':
        return firstAuthor(resource.creators, resource.authors);
      case 'year':
        return resource.issued?.year ?? resource.year ?? '';
      case 'venue':
        return resource.containerTitle ?? resource.venue ?? '';
      case 'type':
        return resource.type ? workTypeLabel(resource.type) : '';
      case 'tags':
        return (
          resource.tags.length > 0 && (
            <ul className="badges" aria-label="Tags">
              {resource.tags.map((tag) => (
                <li key={tag} className="badge">
                  {tag}
                </li>
              ))}
            </ul>
          )
        );
      case 'pdf':
        return pdfCell?.(resource);
      case 'added':
        return <time dateTime={resource.addedAt}>{formatDay(resource.addedAt, language)}</time>;
    }
  };

  return (
    <section aria-labelledby={`${captionId}-heading`} className="library">
      <div className="library-layout">
        <WorkspacesPane current={workspaceId} />
        <div className="library-list">
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
              <DuplicatesLink workspaceId={workspaceId} />
            </div>
          </div>
          <LibraryFilters filters={state} onApply={(filters) => go({ ...filters, page: 1 })}>
            <ColumnChooser settings={columns.settings} onChange={columns.update} />
          </LibraryFilters>
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
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => setSelected([])}
                >
                  Clear selection
                </button>
              )}
            </div>
          </div>
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
                onClick={() => go({ ...NO_FILTERS, page: 1 })}
              >
                Clear filters
              </button>
            </EmptyState>
          )}
          {page.data && total > 0 && (
            <>
              <div className="library-table-scroll">
                <table
                  className="table library-table"
                  style={{ minWidth: `${tableMinWidth}px` }}
                  aria-describedby={`${captionId}-caption`}
                  aria-busy={page.isPlaceholderData || undefined}
                >
                  <caption id={`${captionId}-caption`} className="visually-hidden">
                    Resources of this workspace, page {state.page} of {pages}; choose a title to see
                    it in full
                  </caption>
                  <colgroup>
                    <col className="col-select" />
                    {shown.map((column) => {
                      const width = widthOf(column);
                      return (
                        <col
                          key={column.id}
                          className={`col-${column.id}`}
                          style={width === null ? undefined : { width: `${width}px` }}
                        />
                      );
                    })}
                  </colgroup>
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
                      {shown.map((column) => (
                        <ColumnHeader
                          key={column.id}
                          column={column}
                          state={state}
                          onSort={sortBy}
                          width={widthOf(column)}
                          onResize={(width) => {
                            const id = column.id;
                            if (id !== 'title')
                              columns.update((was) => withColumnWidth(was, id, width));
                          }}
                        />
                      ))}
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
                          {shown.map((column) => (
                            <td key={column.id} className={`col-${column.id}`}>
                              {cellOf(column, resource, isOpen)}
                            </td>
                          ))}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
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
              ...NO_FILTERS,
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
