import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders headings (under the page’s own), emphasis, lists, code, quotes and links', () => {
    const html = renderMarkdown(
      '# Method\n\nThe **main** result is *robust*; see `table 2`.\n\n- one\n- two\n\n> quoted\n\n[paper](https://example.org/p)',
    );
    expect(html).toContain('<h4>Method</h4>');
    expect(html).toContain('<strong>main</strong>');
    expect(html).toContain('<em>robust</em>');
    expect(html).toContain('<code>table 2</code>');
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<blockquote>\s*<p>quoted<\/p>\s*<\/blockquote>/);
    expect(html).toContain(
      '<a href="https://example.org/p" rel="noopener noreferrer nofollow ugc">paper</a>',
    );
  });

  it('keeps a line break as typed (notes written as plain text read as before)', () => {
    expect(renderMarkdown('first line\nsecond line')).toBe('<p>first line<br />second line</p>');
  });

  it.each([
    ['<script>alert(1)</script>', /<script/i],
    ['<img src=x onerror=alert(1)>', /<img/i],
    ['[x](javascript:alert(1))', /javascript:/i],
    ['[x](JaVaScRiPt:alert(1))', /javascript:/i],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', /data:/i],
    ['![pixel](https://tracker.example/p.gif)', /<img/i],
    ['<a href="https://x.org" onclick="alert(1)">x</a>', /<a\s/i],
    ['<style>body{display:none}</style>', /<style/i],
  ])('runs nothing: %s', (text, forbidden) => {
    expect(renderMarkdown(text)).not.toMatch(forbidden);
  });

  it('shows raw HTML as the text it is', () => {
    expect(renderMarkdown('a <b>bold</b> claim')).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });
});
