import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatIsoDate } from './dates';

describe('formatIsoDate', () => {
  it('writes a date as the language does, at the precision it has', () => {
    expect(formatIsoDate('2024-05-08', 'en-IN')).toBe('8 May 2024');
    expect(formatIsoDate('2024-05-08', 'en-US')).toBe('May 8, 2024');
    expect(formatIsoDate('2024-05', 'en-IN')).toBe('May 2024');
    expect(formatIsoDate('2024', 'en-IN')).toBe('2024');
  });

  it('keeps the calendar day whatever the time zone, and leaves what is no date as it is', () => {
    expect(formatIsoDate('2022-01-01', 'en-IN')).toBe('1 Jan 2022');
    expect(formatIsoDate('soon', 'en-IN')).toBe('soon');
    expect(formatIsoDate('2024-05-08', 'not a language tag!')).toMatch(/2024/);
  });
});

describe('formatDay and formatDateTime', () => {
  it('write a moment in the language’s order', () => {
    // Noon UTC is the same calendar day in every time zone from UTC-11 to UTC+11.
    expect(formatDay('2026-11-27T12:00:00Z', 'en-IN')).toBe('27 Nov 2026');
    expect(formatDay('2026-11-27T12:00:00Z', 'en-US')).toBe('Nov 27, 2026');
    expect(formatDateTime('2026-11-27T12:00:00Z', 'en-IN')).toMatch(/^27 Nov 2026, \d{1,2}:\d{2}/);
    expect(formatDateTime('not a time', 'en-IN')).toBe('not a time');
  });
});
