/**
 * Dates as the reader's language writes them (the profile's `language`, e.g. `en-IN`: "8 May 2024"),
 * through Intl.DateTimeFormat. An ISO date keeps the precision it has: `2024-05-08` is a day, `2024-05`
 * a month, `2024` a year. Read in UTC, so that a calendar date never shifts a day with the time zone.
 */
const ISO_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/;

function formatter(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  } catch {
    // A language tag the browser does not know: its own default.
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' });
  }
}

/** A publication date (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`) in the locale's words; the input itself when it is no such date. */
export function formatIsoDate(value: string, locale: string | undefined): string {
  const match = ISO_DATE.exec(value);
  if (!match) return value;
  const [, year, month, day] = match;
  if (!month) return year!;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, day ? Number(day) : 1));
  if (Number.isNaN(date.getTime())) return value;
  return formatter(
    locale,
    day ? { day: 'numeric', month: 'short', year: 'numeric' } : { month: 'short', year: 'numeric' },
  ).format(date);
}

/** The calendar day of a timestamp (`addedAt`), in the reader's time zone and the locale's words. */
export function formatDay(timestamp: string, locale: string | undefined): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  try {
    return new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    }).format(date);
  } catch {
    return date.toLocaleDateString();
  }
}

/** A moment (`expiresAt`, `lastSearched`) as date and time, in the reader's time zone and the locale's words. */
export function formatDateTime(timestamp: string, locale: string | undefined): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
      date,
    );
  } catch {
    return date.toLocaleString();
  }
}
