import { describe, expect, it } from 'vitest';
import { joinedIdentifiers, languageTag, pagesFromEnds, pagesText } from './details.js';

describe('pagesText', () => {
  it('writes out MEDLINE ranges when asked, and leaves whole ones alone', () => {
    expect(pagesText('244-55', { abbreviated: true })).toBe('244-255');
    expect(pagesText('123-9', { abbreviated: true })).toBe('123-129');
    expect(pagesText('S23-8', { abbreviated: true })).toBe('S23-S28');
    expect(pagesText('1116-22, 1130', { abbreviated: true })).toBe('1116-1122, 1130');
    expect(pagesText('1116-1122', { abbreviated: true })).toBe('1116-1122');
    expect(pagesText('244-55')).toBe('244-55');
  });

  it('turns a backwards range round only when asked', () => {
    expect(pagesText('117 - 97', { reversed: true })).toBe('97-117');
    expect(pagesText('518 - 521', { reversed: true })).toBe('518-521');
    expect(pagesText('117 - 97')).toBe('117-97');
  });

  it('keeps what is not a two-page range as it came', () => {
    expect(pagesText('e33693')).toBe('e33693');
    expect(pagesText('75:1-75:35')).toBe('75:1-75:35');
    expect(pagesText('\n  1850013\n ')).toBe('1850013');
    expect(pagesText('  ')).toBeUndefined();
  });
});

describe('pagesFromEnds', () => {
  it('joins two ends, one page once', () => {
    expect(pagesFromEnds('563', '583')).toBe('563-583');
    expect(pagesFromEnds('335', '335')).toBe('335');
    expect(pagesFromEnds(undefined, '12')).toBe('12');
    expect(pagesFromEnds(undefined, undefined)).toBeUndefined();
  });
});

describe('joinedIdentifiers and languageTag', () => {
  it('lists each ISSN once', () => {
    expect(joinedIdentifiers(['2041-210X', '2041-210X'])).toBe('2041-210X');
    expect(joinedIdentifiers(['1461-023X', undefined, '1461-0248'])).toBe('1461-023X, 1461-0248');
    expect(joinedIdentifiers([])).toBeUndefined();
  });

  it('gives BCP 47 tags: two-letter codes and tags as they are, MEDLINE codes mapped', () => {
    expect(languageTag('en')).toBe('en');
    expect(languageTag('en-US')).toBe('en-US');
    expect(languageTag('eng')).toBe('en');
    expect(languageTag('ger')).toBe('de');
    expect(languageTag('und')).toBeUndefined();
    expect(languageTag('constructor')).toBeUndefined();
  });
});
