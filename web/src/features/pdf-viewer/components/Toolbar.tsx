/**
 * The viewer's tools, as pdf.js's own toolbar has them: zoom (out, a choice of fit width, fit page and
 * preset scales, in), the page box (the page in view; type a number and press Enter to go there), and
 * find in the document (Enter: the next match, Shift+Enter: the previous one, Escape: end the search).
 */
import { useState } from 'react';
import type { FindStatus } from '../find';
import { percentOf, ZOOM_STEPS, type Zoom } from '../zoom';

function zoomValue(zoom: Zoom): string {
  return zoom.kind === 'scale' ? String(zoom.scale) : zoom.kind;
}

function findMessage(status: FindStatus | null): string {
  if (!status || status.query === '') return '';
  if (status.state === 'not-found') return 'No matches';
  if (status.total === 0) return 'Searching…';
  const of = `${status.current.toLocaleString('en-US')} of ${status.total.toLocaleString('en-US')}`;
  return status.state === 'wrapped' ? `${of} (from the start again)` : `${of} matches`;
}

export function Toolbar({
  zoom,
  scale,
  onZoom,
  onZoomStep,
  page,
  pageCount,
  onGoTo,
  findStatus,
  onFind,
  onFindClose,
}: {
  zoom: Zoom;
  /** The scale shown now (a fit's too). */
  scale: number;
  onZoom: (zoom: Zoom) => void;
  onZoomStep: (direction: 1 | -1) => void;
  page: number;
  pageCount: number;
  onGoTo: (page: number) => void;
  findStatus: FindStatus | null;
  onFind: (query: string, options: { again: boolean; previous: boolean }) => void;
  onFindClose: () => void;
}) {
  const [pageDraft, setPageDraft] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [pageError, setPageError] = useState(false);
  const custom = zoom.kind === 'scale' && !ZOOM_STEPS.some((step) => step === zoom.scale);

  const goTo = () => {
    if (pageDraft === null) return;
    const wanted = Number(pageDraft);
    if (Number.isInteger(wanted) && wanted >= 1 && wanted <= pageCount) {
      setPageError(false);
      setPageDraft(null);
      onGoTo(wanted);
    } else setPageError(true);
  };
  const find = (previous: boolean) => {
    const trimmed = query.trim();
    if (!trimmed) return;
    onFind(trimmed, { again: findStatus?.query === trimmed, previous });
  };

  return (
    <div className="pdf-toolbar" role="toolbar" aria-label="Document tools">
      <div className="pdf-tool-group">
        <button
          type="button"
          className="button button-small"
          aria-label="Zoom out"
          onClick={() => onZoomStep(-1)}
        >
          −
        </button>
        <select
          aria-label="Zoom"
          className="pdf-zoom"
          value={zoomValue(zoom)}
          onChange={(event) => {
            const value = event.target.value;
            onZoom(
              value === 'fit-width' || value === 'fit-page'
                ? { kind: value }
                : { kind: 'scale', scale: Number(value) },
            );
          }}
        >
          <option value="fit-width">Fit width</option>
          <option value="fit-page">Fit page</option>
          {custom && <option value={zoomValue(zoom)}>{percentOf(scale)}</option>}
          {ZOOM_STEPS.map((step) => (
            <option key={step} value={String(step)}>
              {percentOf(step)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-small"
          aria-label="Zoom in"
          onClick={() => onZoomStep(1)}
        >
          +
        </button>
        {zoom.kind !== 'scale' && <span className="muted pdf-scale">{percentOf(scale)}</span>}
      </div>
      <form
        className="pdf-tool-group"
        onSubmit={(event) => {
          event.preventDefault();
          goTo();
        }}
      >
        <label className="pdf-page-box">
          Page{' '}
          <input
            type="text"
            inputMode="numeric"
            size={4}
            aria-describedby="pdf-page-count"
            aria-invalid={pageError || undefined}
            value={pageDraft ?? String(page)}
            onChange={(event) => setPageDraft(event.target.value)}
            onFocus={(event) => event.target.select()}
            onBlur={() => {
              setPageDraft(null);
              setPageError(false);
            }}
          />
        </label>
        <span id="pdf-page-count">of {pageCount}</span>
        <button type="submit" className="button button-small">
          Go
        </button>
      </form>
      <form
        className="pdf-tool-group pdf-find"
        role="search"
        aria-label="Find in the document"
        onSubmit={(event) => {
          event.preventDefault();
          find(false);
        }}
      >
        <input
          type="search"
          aria-label="Find in the document"
          placeholder="Find in the document"
          value={query}
          maxLength={200}
          onChange={(event) => {
            setQuery(event.target.value);
            if (event.target.value === '') onFindClose();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && event.shiftKey) {
              event.preventDefault();
              find(true);
            } else if (event.key === 'Escape') {
              setQuery('');
              onFindClose();
            }
          }}
        />
        <button
          type="button"
          className="button button-small"
          aria-label="Previous match"
          onClick={() => find(true)}
        >
          ↑
        </button>
        <button type="submit" className="button button-small" aria-label="Next match">
          ↓
        </button>
        <span className="pdf-find-status muted" role="status">
          {findMessage(findStatus)}
        </span>
      </form>
    </div>
  );
}
