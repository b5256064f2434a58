import { describe, expect, it } from 'vitest';
import { composeDigest, type DigestInput } from './digest.js';

const works = Array.from({ length: 5 }, (_, index) => ({
  id: `arxiv:2401.0000${index}`,
  title: `Work ${index}`,
  authors: ['Ada Lovelace'],
  year: 2024,
  url: `https://arxiv.org/abs/2401.0000${index}`,
}));

const input = (overrides: Partial<DigestInput> = {}): DigestInput => ({
  runId: 'run-1',
  to: 'ada@example.org',
  query: 'graph neural networks',
  frequency: 'weekly',
  works,
  newCount: 30,
  providers: null,
  filters: null,
  unsubscribeToken: 'token',
  appOrigin: 'http://app.test',
  publicUrl: 'http://api.test',
  ...overrides,
});

/** The address of the "…and N more" link, read from the text part (`…and N more: <href>`). */
function moreLink(text: string): URL {
  const match = /…and (\d+) more: (\S+)/.exec(text);
  if (!match) throw new Error(`no "…and N more" link in:\n${text}`);
  return new URL(match[2]!);
}

describe('composeDigest: "…and N more"', () => {
  it("searches with the alert's year filter, its other filters and its sources", () => {
    const mail = composeDigest(
      input({
        providers: ['arxiv', 'crossref'],
        filters: { yearFrom: 2024, yearTo: 2025, hasPdf: true, type: 'preprint', venue: 'NeurIPS' },
      }),
    );
    expect(mail.text).toContain('…and 25 more');
    const link = moreLink(mail.text);
    expect(link.origin + link.pathname).toBe('http://app.test/dashboard');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      q: 'graph neural networks',
      providers: 'arxiv,crossref',
      yearFrom: '2024',
      yearTo: '2025',
      hasPdf: 'true',
      type: 'preprint',
      venue: 'NeurIPS',
    });
    // The HTML part links to the same address.
    expect(mail.html).toContain(`href="${link.href.replaceAll('&', '&amp;')}"`);
  });

  it('is the plain search for an alert without filters or chosen sources', () => {
    const link = moreLink(composeDigest(input()).text);
    expect(Object.fromEntries(link.searchParams)).toEqual({ q: 'graph neural networks' });
  });

  it('is absent when every new work is listed', () => {
    expect(composeDigest(input({ newCount: works.length })).text).not.toContain('more');
  });
});
