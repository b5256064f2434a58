import { describe, expect, it } from 'vitest';
import {
  collapseWhitespace,
  decodeHtmlEntities,
  givenFirst,
  inlineMarkupToText,
  isoDateFromParts,
  isoDateFromString,
  markupToText,
  normaliseDoi,
  normaliseTitle,
  parseMonth,
} from './text.js';

describe('decodeHtmlEntities', () => {
  it('decodes numeric references and HTML names, also without the final semicolon', () => {
    expect(decodeHtmlEntities('Universit&#xe0; &#248; &amp; World&#39;s')).toBe(
      "Università ø & World's",
    );
    expect(decodeHtmlEntities('&ldquo;staged.&rdquo')).toBe('“staged.”');
    expect(decodeHtmlEntities('H&S and &unknown; stay')).toBe('H&S and &unknown; stay');
  });
});

describe('collapseWhitespace', () => {
  it('folds every run of whitespace, single newlines, tabs and no-break spaces included, to one space', () => {
    expect(collapseWhitespace(' a\n\nb\u00a0c\td \r\n e  f\u2028g ')).toBe('a b c d e f g');
    expect(collapseWhitespace('already single spaced')).toBe('already single spaced');
    expect(collapseWhitespace('\n')).toBe('');
  });
});

describe('markupToText', () => {
  it('dissolves inline markup and keeps text order', () => {
    expect(
      markupToText('p<sub>trend</sub>=0.048 and r<sup>2</sup>&lt;0.25 at the <i>TERT</i> region'),
    ).toBe('ptrend=0.048 and r2<0.25 at the TERT region');
  });

  it('drops a leading JATS "Abstract" heading and labels section headings', () => {
    const jats =
      '<jats:title>ABSTRACT</jats:title><jats:sec><jats:title>Aim</jats:title><jats:p>Text one.</jats:p></jats:sec>' +
      '<jats:sec><jats:title>Location</jats:title><jats:p>Global.</jats:p></jats:sec>';
    expect(markupToText(jats)).toBe('Aim: Text one.\nLocation: Global.');
  });

  it('keeps stray < and & that are not markup', () => {
    expect(markupToText('<p>p < 0.05 & n > 3</p>')).toBe('p < 0.05 & n > 3');
  });

  it('falls back to stripping tags from markup no parser accepts', () => {
    expect(markupToText('<p>Unclosed <b>bold</p><p>next')).toBe('Unclosed bold\nnext');
  });

  it('turns HTML void tags and paragraphs into lines', () => {
    expect(markupToText('<p>First line<br>second line</p><p>Third&nbsp;para</p>')).toBe(
      'First line\nsecond line\nThird para',
    );
  });

  it('makes one line of a title', () => {
    expect(inlineMarkupToText('The role of\n  <scp>AI</scp>\n  in ecology’s footprint')).toBe(
      'The role of AI in ecology’s footprint',
    );
  });
});

describe('normalisation helpers', () => {
  it('normalises titles for comparison', () => {
    expect(normaliseTitle('After the games are over: life‐history trade‐offs')).toBe(
      normaliseTitle('After the Games Are Over: Life-History Trade-Offs'),
    );
    expect(normaliseTitle('Ecology’s Café')).toBe(normaliseTitle("ecology's cafe"));
    expect(normaliseTitle('Ecology’s Café')).toBe('ecology s cafe');
  });

  it('normalises DOIs from every written form', () => {
    expect(normaliseDoi('https://doi.org/10.1038/S42256-024-00832-8')).toBe(
      '10.1038/s42256-024-00832-8',
    );
    expect(normaliseDoi('doi: 10.1000/xyz')).toBe('10.1000/xyz');
    expect(normaliseDoi('10.1016%2Fj.xgen.2025.100814')).toBe('10.1016/j.xgen.2025.100814');
    expect(normaliseDoi('not a doi')).toBeUndefined();
  });

  it('builds ISO dates at the known precision', () => {
    expect(isoDateFromParts(2001, parseMonth('Jun'))).toBe('2001-06');
    expect(isoDateFromParts(2016, parseMonth('10'), 21)).toBe('2016-10-21');
    expect(isoDateFromParts(2023)).toBe('2023');
    expect(isoDateFromParts(undefined, 5, 1)).toBeNull();
    expect(isoDateFromString('2019-12-05T19:00:10.000Z')).toBe('2019-12-05');
    expect(isoDateFromString('garbage')).toBeNull();
  });

  it('turns "Family, Given" into "Given Family"', () => {
    expect(givenFirst('Pataki, Diane')).toBe('Diane Pataki');
    expect(givenFirst('USGS EROS')).toBe('USGS EROS');
  });
});
