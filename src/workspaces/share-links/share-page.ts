/**
 * The public, read-only page of a shared workspace (`GET /share/{token}`): server-rendered HTML with
 * inline CSS and no script. Every piece of user text passes through `escapeHtml`; links are made only
 * for http(s) URLs. The CSS is allowed by its hash, so the Content-Security-Policy forbids everything else.
 *
 * One anonymous request must not cost what the whole workspace weighs (500 resources with 20 long
 * annotations each rendered 106 MB): the page shows SHARE_PAGE_LIMITS.resourcesPerPage resources, with
 * links to the other pages, a few annotations of each, and long texts shortened, so its size has a
 * fixed bound whatever the workspace holds. The limits are bytes of the escaped HTML, not characters of
 * the text: a `"` is 6 bytes once escaped and an `&` 5, so a page of 512 KB of text limits made of
 * quotes and ampersands was 2.5 MB.
 */
import { createHash } from 'node:crypto';
import { renderMarkdown } from '../../platform/markdown.js';
import { escapeHtml } from '../../platform/escape-html.js';
import { LIMITS } from '../schemas.js';
import { StoredHighlights } from '../annotations/schemas.js';
import type { WorkspaceRow } from '../store.js';
import type { ResourceRow } from '../resources/store.js';
import type { AnnotationRow } from '../annotations/store.js';
import { annotationColorOf } from '../annotations/colors.js';

/** How much of each text the page shows, in bytes of escaped HTML (UTF-8). */
export const SHARE_PAGE_LIMITS = {
  resourcesPerPage: 25,
  annotationsPerResource: 5,
  notesBytes: 2_000,
  annotationBytes: 1_000,
  quotesPerAnnotation: 3,
  quoteBytes: 300,
  titleBytes: 300,
  authorsBytes: 1_000,
  tagBytes: 50,
  typeBytes: 50,
  /** A longer escaped address is not linked (the title shows without it). */
  urlBytes: 2_048,
  workspaceNameBytes: 200,
  descriptionBytes: 2_000,
} as const;

export interface SharePageView {
  workspace: Pick<WorkspaceRow, 'name' | 'description' | 'updatedAt'>;
  expiresAt: Date;
  /** This page's resources, each with its first annotations and how many it has in all. */
  resources: Array<{
    resource: ResourceRow;
    annotations: AnnotationRow[];
    annotationTotal: number;
  }>;
  /** 1-based page number, how many pages there are, and how many resources in all. */
  page: { number: number; count: number; totalResources: number };
  /** What the link lets its holder do: `Can edit` and joinable `Can view` links say so on the page. */
  access: 'edit' | 'view' | 'read-only';
  /**
   * For a link someone may join through, when the visitor is not a member yet: signed in, the app's page
   * that joins the workspace (POST /api/share/{token}/join); signed out, its sign-in and sign-up pages,
   * each coming back to that page. `role` is the role joining gives.
   */
  /** The reader's locale (readerLocale), for its dates. */
  locale: string;
  join?:
    | { signedIn: true; href: string; role: 'editor' | 'viewer' }
    | { signedIn: false; signInHref: string; signUpHref: string; role: 'editor' | 'viewer' };
}

/** The page's eyebrow: the page itself is read-only; the link's kind is what its holder may become. */
const ACCESS_LABELS: Record<SharePageView['access'], string> = {
  edit: 'Shared workspace · Can edit: join to add and change resources',
  view: 'Shared workspace · Can view: join to read it among your workspaces',
  'read-only': 'Shared workspace · read-only',
};

const CSS =
  `
:root{color-scheme:light dark;--bg:#f7f6f3;--card:#fff;--ink:#1d1d1f;--muted:#5f6368;--line:#e3e1dc;--accent:#1f5fae;--chip:#eef2f8;--quote:#f3efe6}
@media (prefers-color-scheme:dark){:root{--bg:#141517;--card:#1d1f22;--ink:#ececec;--muted:#a4a9b0;` +
  `--line:#2f3237;--accent:#8ab4f8;--chip:#25303f;--quote:#2a2822}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.wrap{max-width:46rem;margin:0 auto;padding:0 1rem}
header{padding:2.5rem 0 1.5rem;border-bottom:1px solid var(--line);background:var(--card)}
.eyebrow{margin:0 0 .25rem;font-size:.8rem;letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
h1{margin:0;font-size:clamp(1.6rem,4.5vw,2.2rem);line-height:1.2;overflow-wrap:anywhere}
.description{margin:.75rem 0 0;font-size:1.05rem;white-space:pre-line;overflow-wrap:anywhere}
.meta{margin:.75rem 0 0;font-size:.9rem;color:var(--muted)}
main.wrap{padding-top:1.5rem;padding-bottom:2rem}
.resources{list-style:none;margin:0;padding:0;display:grid;gap:1rem}
.resource{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.1rem 1.25rem}
.kind{margin:0 0 .2rem;font-size:.75rem;letter-spacing:.05em;text-transform:uppercase;color:var(--muted)}
h2{margin:0;font-size:1.2rem;line-height:1.35;overflow-wrap:anywhere}
h2 a{color:var(--accent);text-decoration:none}
h2 a:hover,h2 a:focus{text-decoration:underline}
.host{display:block;margin-top:.15rem;font-size:.8rem;font-weight:400;color:var(--muted);overflow-wrap:anywhere}
.authors{margin:.4rem 0 0;color:var(--muted);font-size:.95rem;overflow-wrap:anywhere}
.tags{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem;margin:.75rem 0 0;padding:0}
.tags li{background:var(--chip);border-radius:999px;padding:.1rem .65rem;font-size:.8rem;overflow-wrap:anywhere}
h3{margin:1rem 0 .35rem;font-size:.8rem;letter-spacing:.05em;text-transform:uppercase;color:var(--muted)}
.notes p{margin:0 0 .5rem;white-space:pre-line;overflow-wrap:anywhere}
.md{overflow-wrap:anywhere}.md p{white-space:normal}.md :is(h4,h5,h6){margin:.6rem 0 .3rem;font-size:1rem}.md :is(ul,ol){margin:0 0 .5rem;padding-left:1.4rem}
.md pre{overflow-x:auto;padding:.5rem;background:var(--quote);border-radius:6px}.md code{font-size:.9em;overflow-wrap:anywhere}
.md blockquote{font-style:normal}.md a{color:var(--accent)}
.md table{border-collapse:collapse;display:block;overflow-x:auto}.md :is(th,td){border:1px solid var(--line);padding:.2rem .5rem}
.annotations ol{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}
.annotations li{border-left:3px solid var(--accent);padding:.1rem 0 .1rem .75rem}
blockquote{margin:0 0 .3rem;padding:.3rem .6rem;background:var(--quote);border-radius:6px;font-style:italic;overflow-wrap:anywhere}
.annotation-body{margin:0;white-space:pre-line;overflow-wrap:anywhere}.annotation-body p{margin:0 0 .3rem}
.annotations time{font-size:.8rem;color:var(--muted)}
.where{margin:0 0 .2rem;font-size:.8rem;color:var(--muted)}
.annotations li.c-yellow{border-left-color:#ffd400}.annotations li.c-red{border-left-color:#ff6666}
.annotations li.c-green{border-left-color:#5fb236}.annotations li.c-blue{border-left-color:#2ea8e5}
.annotations li.c-purple{border-left-color:#a28ae5}.annotations li.c-magenta{border-left-color:#e56eee}
.annotations li.c-orange{border-left-color:#f19837}.annotations li.c-gray{border-left-color:#aaaaaa}
.empty{color:var(--muted);text-align:center;padding:2rem 0}
.more{margin:.4rem 0 0;font-size:.85rem;color:var(--muted)}
.pages{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin:1.5rem 0 0;font-size:.95rem}
.pages a{color:var(--accent)}
.join{margin:1rem 0 0;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}
.join a{display:inline-block;padding:.45rem 1rem;border-radius:8px;background:var(--accent);color:var(--card);font-weight:600;text-decoration:none}
.join a.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
.join a:hover,.join a:focus{text-decoration:underline}
.join span{font-size:.9rem;color:var(--muted)}
footer{padding:0 1rem 2.5rem;font-size:.85rem;color:var(--muted);text-align:center}
@media (max-width:480px){header{padding:1.75rem 0 1.25rem}main.wrap{padding-top:1rem}.resource{padding:1rem;border-radius:10px}}
`.trim();

const CSS_HASH = `sha256-${createHash('sha256').update(CSS).digest('base64')}`;

/** Headers of every share-page answer, found or not: nothing may load, frame, index or refer from it. */
export const SHARE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src '${CSS_HASH}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-robots-tag': 'noindex, nofollow, noarchive',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** Writes a moment as a date, in the reader's locale. */
type DateWriter = (value: Date) => string;
const MAX_AUTHORS_SHOWN = 12;

const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,7}$/;

/**
 * The reader's locale from the browser's Accept-Language (its first tag this runtime knows), as the app
 * writes dates in the browser's own: one date format for the page and the app. `en-US` without one.
 */
export function readerLocale(acceptLanguage: string | undefined): string {
  const tags = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .slice(0, 10)
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => LANGUAGE_TAG.test(tag));
  for (const tag of tags) {
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // Not a tag this runtime takes: the next one.
    }
  }
  return 'en-US';
}

/** The app's day format (web/src/lib/dates.ts, formatDay): day, short month, year, in the locale's order. */
function dateWriter(locale: string): DateWriter {
  const format = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (value) =>
    `<time datetime="${value.toISOString()}">${escapeHtml(format.format(value))}</time>`;
}

function httpUrl(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const ELLIPSIS = '…';
const bytes = (html: string) => Buffer.byteLength(html, 'utf8');

/**
 * The text cut (at a code point, with an ellipsis) so that escaped it takes at most `maxBytes` bytes
 * of UTF-8: the bound holds for the HTML sent, whatever characters the text is made of.
 */
function shorten(text: string, maxBytes: number): string {
  if (bytes(escapeHtml(text)) <= maxBytes) return text;
  const budget = maxBytes - bytes(ELLIPSIS);
  let used = 0;
  let end = 0;
  for (const character of text) {
    const size = bytes(escapeHtml(character));
    if (used + size > budget) break;
    used += size;
    end += character.length;
  }
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/** Escaped, within `maxBytes` bytes. */
function escapeWithin(text: string, maxBytes: number): string {
  return escapeHtml(shorten(text, maxBytes));
}

function paragraphs(text: string, className?: string): string {
  const attr = className ? ` class="${className}"` : '';
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p${attr}>${escapeHtml(part)}</p>`)
    .join('');
}

/** Rendered Markdown may take this much more than its text's escaped bytes (its tags); past it, less text. */
const MARKUP_ALLOWANCE = 1.25;

/**
 * A note or comment as Markdown (platform/markdown.ts, sanitised) within `maxBytes` of text: when its
 * markup would pass the allowance, a shorter part of it; when even that would, its paragraphs as plain
 * text. The page's size bound holds whatever the text is made of.
 */
function markdownWithin(text: string, maxBytes: number, className: string): string {
  const cap = maxBytes * MARKUP_ALLOWANCE;
  for (const budget of [maxBytes, maxBytes / 2]) {
    const html = renderMarkdown(shorten(text, budget));
    if (bytes(html) <= cap) return `<div class="${className} md">${html}</div>`;
  }
  return `<div class="${className}">${paragraphs(shorten(text, maxBytes))}</div>`;
}

function authorsLine(authors: string[]): string {
  if (authors.length === 0) return '';
  const shown = authors.slice(0, MAX_AUTHORS_SHOWN).join(', ');
  const more =
    authors.length > MAX_AUTHORS_SHOWN ? ` and ${authors.length - MAX_AUTHORS_SHOWN} more` : '';
  return `<p class="authors">${escapeWithin(shown, SHARE_PAGE_LIMITS.authorsBytes)}${more}</p>`;
}

function highlightQuotes(highlights: Record<string, unknown>): string {
  const ranges = Array.isArray(highlights.ranges) ? (highlights.ranges as unknown[]) : [];
  return ranges
    .map((range) =>
      range && typeof range === 'object' ? (range as { text?: unknown }).text : undefined,
    )
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .slice(0, SHARE_PAGE_LIMITS.quotesPerAnnotation)
    .map((text) => `<blockquote>${escapeWithin(text, SHARE_PAGE_LIMITS.quoteBytes)}</blockquote>`)
    .join('');
}

/** The quote of a selection in the PDF, with its page (or pages, when it runs past a page break). */
function pdfQuote(highlights: Record<string, unknown>): { quote: string; pages: string } | null {
  const found = StoredHighlights.shape.pdf.safeParse(highlights.pdf);
  const anchor = found.success ? found.data : undefined;
  if (!anchor || anchor.quote.trim() === '') return null;
  const last = Math.max(anchor.page, ...anchor.rects.map((rect) => rect.page ?? anchor.page));
  return {
    quote: anchor.quote,
    pages: last > anchor.page ? `pages ${anchor.page}–${last}` : `page ${anchor.page}`,
  };
}

const colourName = (color: string) => color.charAt(0).toUpperCase() + color.slice(1);

/**
 * An annotation: its colour (the stripe beside it, and in words beside a quote, so that colour is not
 * the only sign), the PDF's quote with its page or the abstract's quotes, and its text; a highlight
 * kept without a note has the quote as its text, shown once.
 */
function renderAnnotation(annotation: AnnotationRow, date: DateWriter): string {
  const color = annotationColorOf(annotation.color);
  const pdf = pdfQuote(annotation.highlights);
  const quotes = pdf
    ? `<blockquote>${escapeWithin(pdf.quote, SHARE_PAGE_LIMITS.quoteBytes)}</blockquote>`
    : highlightQuotes(annotation.highlights);
  const where = quotes
    ? `<p class="where">${colourName(color)}${pdf ? ` · ${pdf.pages}` : ''}</p>`
    : '';
  const body =
    pdf && annotation.body === `“${pdf.quote}”`
      ? ''
      : markdownWithin(annotation.body, SHARE_PAGE_LIMITS.annotationBytes, 'annotation-body');
  return `<li class="c-${color}">${where}${quotes}${body}${date(annotation.createdAt)}</li>`;
}

function renderResource(
  { resource, annotations, annotationTotal }: SharePageView['resources'][number],
  date: DateWriter,
): string {
  const url = httpUrl(resource.url);
  const href = url ? escapeHtml(url.href) : '';
  const title = escapeWithin(resource.title, SHARE_PAGE_LIMITS.titleBytes);
  const heading =
    url && bytes(href) <= SHARE_PAGE_LIMITS.urlBytes
      ? `<h2><a href="${href}" rel="noopener noreferrer nofollow ` +
        `ugc">${title}</a><span ` +
        `class="host">${escapeHtml(url.hostname.replace(/^www\./, ''))}</span></h2>`
      : `<h2>${title}</h2>`;
  const kind = resource.type
    ? `<p class="kind">${escapeWithin(resource.type, SHARE_PAGE_LIMITS.typeBytes)}</p>`
    : '';
  const tags = resource.tags.length
    ? `<ul class="tags" aria-label="Tags">${resource.tags
        .slice(0, LIMITS.tags)
        .map((tag) => `<li>${escapeWithin(tag, SHARE_PAGE_LIMITS.tagBytes)}</li>`)
        .join('')}</ul>`
    : '';
  const notes = resource.notes.trim()
    ? `<section class="notes"><h3>Notes</h3>${markdownWithin(resource.notes, SHARE_PAGE_LIMITS.notesBytes, 'notes-body')}</section>`
    : '';
  const shown = annotations.slice(0, SHARE_PAGE_LIMITS.annotationsPerResource);
  const hidden = Math.max(annotationTotal, annotations.length) - shown.length;
  const more =
    hidden > 0
      ? `<p class="more">and ${hidden} more ${hidden === 1 ? 'annotation' : 'annotations'}</p>`
      : '';
  const annotationList = shown.length
    ? `<section class="annotations"><h3>Annotations (${shown.length + hidden})</h3><ol>` +
      `${shown.map((annotation) => renderAnnotation(annotation, date)).join('')}</ol>${more}</section>`
    : '';
  return `<li class="resource"><article>${kind}${heading}${authorsLine(resource.authors)}${tags}${notes}${annotationList}</article></li>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow, noarchive">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Previous / next links (relative: the path keeps the token, which never appears in the page). */
function pageLinks({ number, count }: SharePageView['page']): string {
  if (count <= 1) return '';
  const previous =
    number > 1 ? `<a href="?page=${number - 1}" rel="prev">← Previous</a>` : '<span></span>';
  const next =
    number < count ? `<a href="?page=${number + 1}" rel="next">Next →</a>` : '<span></span>';
  return `<nav class="pages" aria-label="Pages">${previous}<span>Page ${number} of ${count}</span>${next}</nav>`;
}

function joinOffer(join: NonNullable<SharePageView['join']>): string {
  const what =
    join.role === 'editor'
      ? 'as an editor: add, change and remove its resources'
      : 'as a viewer: find it among your workspaces, read and annotate';
  if (!join.signedIn)
    return (
      `<p class="join"><a href="${escapeHtml(join.signInHref)}" rel="noreferrer">Sign in to join</a>` +
      `<a class="secondary" href="${escapeHtml(join.signUpHref)}" rel="noreferrer">Sign up</a>` +
      `<span>With an account you can join this workspace ${what}.</span></p>`
    );
  return `<p class="join"><a href="${escapeHtml(join.href)}" rel="noreferrer">Join this workspace</a><span>You are signed in: join it ${what}.</span></p>`;
}

export function renderSharePage(view: SharePageView): string {
  const { workspace, resources, page: position } = view;
  const date = dateWriter(view.locale);
  const total = position.totalResources;
  const count = `${total} ${total === 1 ? 'resource' : 'resources'}`;
  const name = escapeWithin(workspace.name, SHARE_PAGE_LIMITS.workspaceNameBytes);
  const description = workspace.description.trim()
    ? `<p class="description">${escapeWithin(workspace.description, SHARE_PAGE_LIMITS.descriptionBytes)}</p>`
    : '';
  const list = resources.length
    ? `<ol class="resources" start="${(position.number - 1) * SHARE_PAGE_LIMITS.resourcesPerPage + 1}">` +
      `${resources.map((item) => renderResource(item, date)).join('')}</ol>`
    : total === 0
      ? '<p class="empty">This workspace has no resources yet.</p>'
      : '<p class="empty">There is no such page.</p>';
  return page(
    `${shorten(workspace.name, SHARE_PAGE_LIMITS.workspaceNameBytes)} · Shared workspace`,
    `<header><div class="wrap">
<p class="eyebrow">${ACCESS_LABELS[view.access]}</p>
<h1>${name}</h1>
${description}
<p class="meta">${count} · updated ${date(workspace.updatedAt)}</p>
${view.join ? joinOffer(view.join) : ''}
</div></header>
<main class="wrap">${list}${pageLinks(position)}</main>
<footer>Shared from Research Workspace. This link stops working on ${date(view.expiresAt)}, or sooner if its owner revokes it.</footer>`,
  );
}

/** Too many page views from one address: try again later (the answer carries Retry-After). */
export function renderShareRateLimitedPage(): string {
  return page(
    'Too many requests',
    `<main class="wrap"><h1>Too many requests</h1>
<p>This page was asked for too often from your address. Please try again in a minute.</p></main>`,
  );
}

/** A page number that is not one (`?page=abc`, `?page=0`): the page says what is allowed. */
export function renderShareBadPageNumberPage(): string {
  return page(
    'No such page',
    `<main class="wrap"><h1>No such page</h1>
<p>The page number in this address must be a whole number from 1 to 1,000. <a href="?page=1">Go to the first page</a>.</p></main>`,
  );
}

/** The one answer for unknown, expired and revoked links alike: nothing tells them apart. */
export function renderShareNotFoundPage(): string {
  return page(
    'Link not available',
    `<main class="wrap"><h1>Link not available</h1>
<p>This share link does not exist, has expired, or was revoked by its owner.</p></main>`,
  );
}
