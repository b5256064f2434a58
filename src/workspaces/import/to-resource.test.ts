/**
 * An entry as the resource it becomes (to-resource.ts), at the unit level: what is kept of text that
 * looks like HTML.
 */
import { describe, expect, it } from 'vitest';
import { containsMarkup } from '../../platform/sanitize.js';
import { resourceOf } from './to-resource.js';

const recordOf = (item: Record<string, unknown>, cslJson = true) => {
  const made = resourceOf('w', { type: 'article-journal', title: 'T', ...item }, { cslJson });
  if ('reason' in made) throw new Error(made.reason);
  return made.values.record as Record<string, unknown>;
};

describe('text that looks like HTML', () => {
  it("keeps the text of a <script> element as text (Better BibTeX's mark for TeX it did not read)", () => {
    // `journal = {\aap}` as Better BibTeX imports it: the journal is `\aap`, not nothing.
    expect(recordOf({ 'container-title': '<script>\\aap</script>' }).containerTitle).toBe('\\aap');
    // Kept as text, never as markup: nothing in it an HTML reader takes for a tag.
    const hostile = recordOf({
      'container-title': '<script>alert("<b>x</b>")</script> <style type="x">p{}</style>J',
    }).containerTitle as string;
    expect(hostile).toBe('alert("x") p{}J');
    expect(containsMarkup(hostile)).toBe(false);
    expect(recordOf({ publisher: '<scr<script>ipt>alert(1)</script>' }, false).publisher).toBe(
      'alert(1)',
    );
  });
});
