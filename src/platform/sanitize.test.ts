import { describe, expect, it } from 'vitest';
import { escapeHtml, stripHtml } from './sanitize.js';

describe('stripHtml', () => {
  it('gives plain text back trimmed, quotes and ">" included', () => {
    expect(stripHtml('  a > b, "quoted" and \'single\'\n')).toBe('a > b, "quoted" and \'single\'');
  });

  it('removes tags, keeps their text, and drops scripts', () => {
    expect(stripHtml('<b>bold</b> <i>and</i> <script>alert(1)</script>text')).toBe('bold and text');
  });

  it('decodes the entities it escapes', () => {
    expect(stripHtml('Fish &amp; chips &lt;3')).toBe('Fish & chips <3');
  });
});

describe('escapeHtml', () => {
  it('escapes markup characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
