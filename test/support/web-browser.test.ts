import { describe, expect, it } from 'vitest';
import { auditCombinations } from './web-browser.js';

describe('auditCombinations', () => {
  it('checks each viewport and each colour scheme once by default', () => {
    expect(auditCombinations({})).toEqual([
      ['mobile', 'light'],
      ['desktop', 'dark'],
    ]);
  });

  it('checks all four combinations with WEB_AUDIT=all', () => {
    expect(auditCombinations({ WEB_AUDIT: 'all' })).toEqual([
      ['mobile', 'light'],
      ['mobile', 'dark'],
      ['desktop', 'light'],
      ['desktop', 'dark'],
    ]);
  });
});
