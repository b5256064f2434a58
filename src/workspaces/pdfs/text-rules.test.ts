import { describe, expect, it } from 'vitest';
import { splitPages } from './extraction.js';
import { findIdentifier, firstPageTitle, isPlausibleTitle, splitAuthors } from './metadata.js';
import { parseRange } from './ranges.js';

describe('parseRange (single byte ranges of RFC 9110)', () => {
  it('reads first-last, first- and -suffix, bounded by the size', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({
      kind: 'partial',
      range: { start: 0, end: 99 },
    });
    expect(parseRange('bytes=900-', 1000)).toEqual({
      kind: 'partial',
      range: { start: 900, end: 999 },
    });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({
      kind: 'partial',
      range: { start: 990, end: 999 },
    });
    expect(parseRange('bytes=-10', 1000)).toEqual({
      kind: 'partial',
      range: { start: 990, end: 999 },
    });
    expect(parseRange('bytes=-5000', 1000)).toEqual({
      kind: 'partial',
      range: { start: 0, end: 999 },
    });
  });

  it('is unsatisfiable from the end on, and for an empty suffix', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=5000-6000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
  });

  it('answers anything else with the whole file: none, several ranges, other units, reversed, nonsense', () => {
    for (const header of [
      undefined,
      'bytes=0-1,4-5',
      'items=0-1',
      'bytes=9-3',
      'bytes=-',
      'bytes=a-b',
      'bytes=99999999999999999999-',
    ]) {
      const answer = parseRange(header, 1000);
      // A number past what a double holds exactly is no offset this file has.
      if (header === 'bytes=99999999999999999999-') expect(answer.kind).toBe('unsatisfiable');
      else expect(answer, String(header)).toEqual({ kind: 'whole' });
    }
  });
});

describe('what a PDF says about itself', () => {
  it('finds the first DOI (without the punctuation after it), else an arXiv id', () => {
    expect(findIdentifier('Published 2017. DOI 10.7717/peerj-cs.118. Copyright')).toEqual({
      kind: 'doi',
      id: '10.7717/peerj-cs.118',
    });
    expect(findIdentifier('(see https://doi.org/10.1038/NATURE14539).')).toEqual({
      kind: 'doi',
      id: '10.1038/nature14539',
    });
    expect(findIdentifier('arXiv:2004.04906v3 [cs.CL] 30 Sep 2020')).toEqual({
      kind: 'arxiv',
      id: 'arxiv:2004.04906',
    });
    expect(findIdentifier('arXiv: hep-th/9901001v2')).toEqual({
      kind: 'arxiv',
      id: 'arxiv:hep-th/9901001',
    });
    expect(findIdentifier('No identifier here, only 10.5 percent.')).toBeNull();
  });

  it('takes an information-dictionary title only when it reads as one', () => {
    expect(isPlausibleTitle('Construction of the Literature Graph in Semantic Scholar')).toBe(true);
    for (const title of [
      '6489122611071476 1..10',
      'Microsoft Word - draft7.docx',
      'paper.pdf',
      'Untitled',
      'x',
      undefined,
    ]) {
      expect(isPlausibleTitle(title), String(title)).toBe(false);
    }
  });

  it("takes the first page's first title-like line, past running heads", () => {
    const page =
      'Journal of Things, Vol. 3\n2017\nMeasuring the Flight of Bumblebees in Cold Weather\nAda Lovelace';
    expect(firstPageTitle(page)).toBe('Measuring the Flight of Bumblebees in Cold Weather');
    expect(firstPageTitle('12\n\n3 4')).toBeNull();
  });

  it('splits an Author field on semicolons, else commas and "and"', () => {
    expect(splitAuthors('Arman Cohan ; Sergey Feldman ; Iz Beltagy')).toEqual([
      'Arman Cohan',
      'Sergey Feldman',
      'Iz Beltagy',
    ]);
    expect(splitAuthors('Ada Lovelace, Charles Babbage and Mary Somerville')).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
      'Mary Somerville',
    ]);
    expect(splitAuthors('Nuala E. Tully {et al.}')).toEqual(['Nuala E. Tully']);
    expect(splitAuthors(undefined)).toEqual([]);
  });
});

describe('splitPages', () => {
  it("splits pdftotext's text (a form feed after every page) and pdf.js's (between pages) alike", () => {
    expect(splitPages('one\ftwo\fthree\f', 3)).toEqual(['one', 'two', 'three']);
    expect(splitPages('one\ftwo\fthree', 3)).toEqual(['one', 'two', 'three']);
    expect(splitPages('one\f\fthree\f', 3)).toEqual(['one', '', 'three']);
  });

  it('bounds each page and drops NUL characters PostgreSQL text cannot hold', () => {
    const [long, nul] = splitPages(`${'a'.repeat(25_000)}\fx\u0000y`, 2);
    expect(long!.length).toBe(20_000);
    expect(nul).toBe('xy');
  });
});
