/**
 * Citing resources in a chosen style: `Cite…` (on the library's selection, or on one open resource)
 * opens a dialog with a style picker (the five common styles, the rest found by name), a preview of
 * the reference list and the in-text citation (GET /api/workspaces/{id}/cite), and Copy buttons that
 * put the text and its HTML (italics kept) on the clipboard. The style chosen is remembered in this
 * browser. Closing the dialog returns focus to the button that opened it.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { keepPreviousData } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { queries } from '../../../api/client';
import type { components } from '../../../api/schema';
import { describeError } from '../../../api/errors';
import { plural } from '../../../lib/plural';
import { closeOnEscapeUnderToasts } from '../../../components/dialog-focus';
import { useToast } from '../../../components/Toasts';
import '../cite.css';

const STYLE_KEY = 'cite-style';
const DEFAULT_STYLE = 'apa';

function rememberedStyle(): string {
  try {
    return localStorage.getItem(STYLE_KEY) ?? DEFAULT_STYLE;
  } catch {
    return DEFAULT_STYLE;
  }
}

function rememberStyle(id: string): void {
  try {
    localStorage.setItem(STYLE_KEY, id);
  } catch {
    // Storage refused (private mode): the choice lasts while the page does.
  }
}

/** Text and HTML together, so that a word processor keeps the italics and a plain field gets text. */
async function copyRich(text: string, html: string): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/plain': new Blob([text], { type: 'text/plain' }),
        'text/html': new Blob([html], { type: 'text/html' }),
      }),
    ]);
  } else {
    await navigator.clipboard.writeText(text);
  }
}

type StyleId = components['schemas']['CitationStyle']['id'];

function useCitations(
  workspaceId: string,
  resourceIds: string[],
  style: StyleId,
  format: 'text' | 'html',
  enabled: boolean,
) {
  return queries.useQuery(
    'get',
    '/api/workspaces/{id}/cite',
    { params: { path: { id: workspaceId }, query: { resourceIds, style, format } } },
    { enabled, placeholderData: keepPreviousData, staleTime: 60_000 },
  );
}

function CiteBody({ workspaceId, resourceIds }: { workspaceId: string; resourceIds: string[] }) {
  const [chosen, setChosen] = useState(rememberedStyle);
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const styles = queries.useQuery(
    'get',
    '/api/citation-styles',
    { params: { query: q ? { q } : {} } },
    { placeholderData: keepPreviousData, staleTime: Infinity },
  );
  const all = queries.useQuery(
    'get',
    '/api/citation-styles',
    { params: { query: {} } },
    { staleTime: Infinity },
  );
  // A remembered id the service no longer offers falls back to APA.
  const current =
    all.data?.styles.find((each) => each.id === chosen) ??
    all.data?.styles.find((each) => each.id === DEFAULT_STYLE);
  const style = current?.id ?? DEFAULT_STYLE;
  const text = useCitations(workspaceId, resourceIds, style, 'text', all.data !== undefined);
  const html = useCitations(workspaceId, resourceIds, style, 'html', all.data !== undefined);
  const toast = useToast();
  const [copyError, setCopyError] = useState<string | null>(null);
  const ids = { search: useId(), style: useId(), preview: useId() };

  const listed = styles.data?.styles ?? [];
  // The style in use stays in the list whatever the search finds, so the picker always shows it.
  const options =
    current && !listed.some((each) => each.id === current.id) ? [current, ...listed] : listed;
  const choose = (id: string) => {
    setChosen(id);
    rememberStyle(id);
  };
  // The HTML copy is the current style's only (a placeholder is the previous style's); copying waits
  // for it, or goes plain when it could not be had.
  const richNow = html.data && !html.isPlaceholderData ? html.data : undefined;
  const ready = text.data && !text.isPlaceholderData && (richNow !== undefined || html.isError);
  const copy = async (what: 'bibliography' | 'citation') => {
    const plain = text.data?.[what];
    const rich = richNow?.[what];
    if (!plain) return;
    try {
      await copyRich(plain, rich ?? plain);
      setCopyError(null);
      toast(
        `Copied the ${what === 'bibliography' ? plural(resourceIds.length, 'reference') : 'in-text citation'} (${current?.shortTitle ?? style})`,
      );
    } catch (error) {
      setCopyError(
        `The browser did not let the page write to the clipboard ` +
          `(${error instanceof Error ? error.message : String(error)}). Select the ` +
          `text below and copy it yourself.`,
      );
    }
  };

  return (
    <>
      <div className="form cite-pick">
        <div className="field">
          <label htmlFor={ids.search}>Find a style by name</label>
          <input
            id={ids.search}
            type="search"
            value={search}
            maxLength={100}
            placeholder="e.g. Nature, AMA"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.style}>Style</label>
          <select id={ids.style} value={style} onChange={(event) => choose(event.target.value)}>
            {options.map((each) => (
              <option key={each.id} value={each.id}>
                {each.shortTitle} — {each.title}
              </option>
            ))}
          </select>
          <p className="field-hint" role="status">
            {q &&
              styles.data &&
              listed.length === 0 &&
              `No style is called “${q}”. Try another name, e.g. MLA, Chicago or IEEE.`}
          </p>
        </div>
      </div>
      <section
        aria-labelledby={ids.preview}
        className="cite-preview"
        aria-busy={!ready || undefined}
      >
        <h3 id={ids.preview}>Preview</h3>
        {text.isError ? (
          <p className="field-error" role="alert">
            The citation could not be made: {describeError(text.error)}
          </p>
        ) : text.data ? (
          <>
            <div className="cite-bibliography">{text.data.bibliography}</div>
            <p>
              <span className="muted">In text:</span>{' '}
              <span className="cite-in-text">{text.data.citation}</span>
            </p>
          </>
        ) : (
          <p role="status">Formatting {plural(resourceIds.length, 'reference')}…</p>
        )}
      </section>
      {copyError && (
        <p className="field-error" role="alert">
          {copyError}
        </p>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!ready}
          onClick={() => void copy('bibliography')}
        >
          Copy {resourceIds.length === 1 ? 'reference' : 'bibliography'}
        </button>
        <button
          type="button"
          className="button"
          disabled={!ready}
          onClick={() => void copy('citation')}
        >
          Copy in-text citation
        </button>
        <Dialog.Close className="button">Close</Dialog.Close>
      </div>
    </>
  );
}

/** `Cite…` and its dialog, for the resources named (one, or the library's selection). */
export function CiteButton({
  workspaceId,
  resourceIds,
  label = 'Cite…',
  className = 'button button-small',
}: {
  workspaceId: string;
  resourceIds: string[];
  label?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const none = resourceIds.length === 0;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className={className} disabled={none}>
        {label}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog cite-dialog"
          aria-describedby={undefined}
          {...closeOnEscapeUnderToasts(() => setOpen(false))}
        >
          <Dialog.Title>Cite {plural(resourceIds.length, 'resource')}</Dialog.Title>
          {open && !none && <CiteBody workspaceId={workspaceId} resourceIds={resourceIds} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
