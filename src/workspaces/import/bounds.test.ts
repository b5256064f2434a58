/**
 * What an imported file may cost before it is read, and how a lone `$` is read (issue 33, items 1
 * and 12): entry heads are counted before any parser runs, `@string` macros may not grow past their
 * bounds (a 400 naming the macro), and `title = {a $ b}` is a literal dollar sign, as biber reads it.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { readImportFile, type FileParser } from './commands.js';
import { MACRO_LIMITS } from './formats.js';
import { IMPORT_LIMITS } from './limits.js';

const refusal = async (read: Promise<unknown>) => {
  const error = await read.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  const api = error as ApiError;
  return { status: api.status, message: api.message, details: api.details };
};

const neverParse: FileParser = () => {
  throw new Error('the file was parsed although its entry count is past the limit');
};

describe('counting entries before reading', () => {
  it('refuses a BibTeX file past the entry limit without parsing it, saying how many it holds at least', async () => {
    const file = Array.from(
      { length: IMPORT_LIMITS.entries + 1 },
      (_, i) => `@misc{k${i}, title = {T${i}}}`,
    ).join('\n');
    expect(await refusal(readImportFile(file, null, neverParse))).toEqual({
      status: 400,
      message: expect.stringMatching(/at least 5,001 entries; import at most 5,000/),
      details: { field: 'file', reason: 'too_many_entries' },
    });
  });

  it('refuses a RIS file past the entry limit without parsing it', async () => {
    const file = Array.from(
      { length: IMPORT_LIMITS.entries + 1 },
      (_, i) => `TY  - JOUR\nTI  - R${i}\nER  - \n`,
    ).join('\n');
    expect((await refusal(readImportFile(file, 'ris', neverParse))).details).toEqual({
      field: 'file',
      reason: 'too_many_entries',
    });
  });

  it('counts neither @string, @comment nor @preamble as entries', async () => {
    const macros = Array.from(
      { length: IMPORT_LIMITS.entries + 1 },
      (_, i) => `@string{m${i} = {Journal ${i}}}`,
    );
    const file = `${macros.join('\n')}\n@comment{x}\n@preamble{"y"}\n@article{k, title = {One}, journal = m3}`;
    const read = await readImportFile(file, 'bibtex');
    expect(read.entries).toHaveLength(1);
    expect(read.entries[0]).toMatchObject({ ok: true, item: { 'container-title': 'Journal 3' } });
  });
});

describe('@string macro expansion is bounded', () => {
  it('refuses macros that double (a1 = a0 # a0, …) with a 400 naming the first one past the bound', async () => {
    const lines = ['@string{a0 = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}'];
    for (let i = 1; i <= 21; i++) lines.push(`@string{a${i} = a${i - 1} # a${i - 1}}`);
    lines.push('@article{k, title = a21, year = 2020}');
    // 32 × 2^11 = 65,536 is the bound itself; a12 is the first past it.
    expect(await refusal(readImportFile(lines.join('\n'), 'bibtex'))).toEqual({
      status: 400,
      message: expect.stringMatching(/macro "a12" \(line 13\) expands to more than 65,536/),
      details: { field: 'file', reason: 'macro_too_large' },
    });
  });

  it('refuses entries whose uses of a macro add up past the total, naming the macro', async () => {
    const big = 'y'.repeat(60_000);
    const uses = Math.ceil(MACRO_LIMITS.total / big.length) + 1;
    const entries = Array.from(
      { length: uses },
      (_, i) => `@article{k${i}, title = {T${i}}, note = big}`,
    );
    const file = `@string{small = {S}}\n@string{big = {${big}}}\n${entries.join('\n')}`;
    expect(await refusal(readImportFile(file, 'bibtex'))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/the largest share is the macro "big"/),
      details: { field: 'file', reason: 'macro_too_large' },
    });
  });

  it('reads macros within the bounds, names of macros and fields in any case', async () => {
    const file = `@STRING{Jml = {Journal of ML}}\n@string{full = jml # { (Online)}}\n@article{k, title = {T}, JOURNAL = full, year = 2020}`;
    const read = await readImportFile(file, 'bibtex');
    expect(read.entries[0]).toMatchObject({
      ok: true,
      item: { 'container-title': 'Journal of ML (Online)' },
    });
  });
});

describe('a lone $ in a BibTeX value', () => {
  it('is read as a literal dollar sign; a pair is still math, an escaped one still a dollar', async () => {
    const file = [
      '@article{lone, title = {a $ b}, year = 2020}',
      '@article{quoted, title = "Costs of $5 a day", year = 2021}',
      '@article{math, title = {Decay of $\\alpha$ particles}, year = 2022}',
      '@article{both, title = {$x^2$ costs \\$3 and $ more}, year = 2023}',
    ].join('\n');
    const read = await readImportFile(file, 'bibtex');
    const titles = Object.fromEntries(
      read.entries.map((entry) => [entry.key, entry.ok ? entry.item.title : entry.reason]),
    );
    expect(titles).toEqual({
      lone: 'a $ b',
      quoted: 'Costs of $5 a day',
      math: 'Decay of α particles',
      both: 'x² costs $3 and $ more',
    });
  });
});
