/**
 * The library table's columns (Zotero's items pane): which are shown and how wide each is, chosen by the
 * user and kept per user in this browser's localStorage. Title is always shown and takes the width the
 * others leave; the rest have a width in CSS pixels within bounds. What is read back is checked: an
 * unknown column, a width out of bounds or a value that is not JSON falls back to the defaults.
 */
import type { Sort } from './library-query';

const COLUMN_IDS = [
  'title',
  'key',
  'author',
  'year',
  'venue',
  'type',
  'tags',
  'pdf',
  'added',
] as const;
export type ColumnId = (typeof COLUMN_IDS)[number];
/** The columns with a width of their own (Title takes the rest). */
export type SizedColumnId = Exclude<ColumnId, 'title'>;

export interface ColumnDefinition {
  id: ColumnId;
  label: string;
  /** The server's sort for this column, when it has one. */
  sort?: Sort;
}

export const COLUMNS: readonly ColumnDefinition[] = [
  { id: 'title', label: 'Title', sort: 'title' },
  { id: 'key', label: 'Citation key' },
  { id: 'author', label: 'First author', sort: 'author' },
  { id: 'year', label: 'Year', sort: 'year' },
  { id: 'venue', label: 'Venue', sort: 'venue' },
  { id: 'type', label: 'Type' },
  { id: 'tags', label: 'Tags' },
  { id: 'pdf', label: 'PDF' },
  { id: 'added', label: 'Added', sort: 'added' },
];

export const MIN_WIDTH = 48;
export const MAX_WIDTH = 480;
/** The least the title keeps: past it the list scrolls sideways inside its pane, the page never does. */
export const MIN_TITLE_WIDTH = 160;

export interface ColumnSettings {
  hidden: SizedColumnId[];
  widths: Record<SizedColumnId, number>;
}

/** What a new user sees: compact enough that a 1440 px screen keeps the title two lines at most. */
export const DEFAULT_COLUMNS: ColumnSettings = {
  hidden: ['type'],
  widths: { key: 110, author: 100, year: 52, venue: 110, type: 110, tags: 80, pdf: 56, added: 92 },
};

const isSized = (value: unknown): value is SizedColumnId =>
  typeof value === 'string' &&
  value !== 'title' &&
  (COLUMN_IDS as readonly string[]).includes(value);

const clampWidth = (width: number) => Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));

/** Settings read back from storage; anything unknown or out of bounds falls back to the default. */
export function parseColumnSettings(text: string | null): ColumnSettings {
  if (!text) return DEFAULT_COLUMNS;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return DEFAULT_COLUMNS;
  }
  if (typeof value !== 'object' || value === null) return DEFAULT_COLUMNS;
  const { hidden, widths } = value as { hidden?: unknown; widths?: unknown };
  const settings: ColumnSettings = {
    hidden: Array.isArray(hidden) ? [...new Set(hidden.filter(isSized))] : DEFAULT_COLUMNS.hidden,
    widths: { ...DEFAULT_COLUMNS.widths },
  };
  if (typeof widths === 'object' && widths !== null)
    for (const [id, width] of Object.entries(widths)) {
      if (isSized(id) && typeof width === 'number' && Number.isFinite(width))
        settings.widths[id] = clampWidth(width);
    }
  return settings;
}

/** The storage key: one user's choice is not another's on a shared computer. */
export const columnSettingsKey = (userId: string) => `library-columns:${userId}`;

export function withColumnShown(
  settings: ColumnSettings,
  id: SizedColumnId,
  shown: boolean,
): ColumnSettings {
  const hidden = settings.hidden.filter((each) => each !== id);
  return { ...settings, hidden: shown ? hidden : [...hidden, id] };
}

export function withColumnWidth(
  settings: ColumnSettings,
  id: SizedColumnId,
  width: number,
): ColumnSettings {
  return { ...settings, widths: { ...settings.widths, [id]: clampWidth(width) } };
}

export function visibleColumns(settings: ColumnSettings): ColumnDefinition[] {
  return COLUMNS.filter((column) => column.id === 'title' || !settings.hidden.includes(column.id));
}
