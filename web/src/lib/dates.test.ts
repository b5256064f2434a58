import { describe, expect, it } from 'vitest';
import { formatIsoDate } from './dates';

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
