/**
 * The exports as LaTeX's and pandoc's toolchains read them: real `.bib` files of each source's shape
 * (Google Scholar, DBLP, the ACL Anthology, arXiv, JabRef, Mendeley; test/fixtures/toolchains/SOURCES.md)
 * are imported, each into a workspace of its own, and exported; beside them a workspace of hand-made
 * resources with LaTeX's special characters, accents and page ranges in every field. Then one
 * document per toolchain cites every exported key:
 *
 * - pdflatex + BibTeX (`plain`) on the `format=bibtex` exports,
 * - pdflatex + biblatex + biber on the `format=biblatex` exports,
 * - pandoc `--citeproc` on the `format=csljson` exports,
 *
 * each with no undefined citation and no error (T1 fonts, for the accents BibTeX writes as `{\\k e}`,
 * from Latin Modern: outline fonts, none made by METAFONT on the first run); the protected words of the titles survive plain's
 * lower-casing in its `.bbl`. The three run side by side (a few seconds in all).
 *
 * Skipped with one line when a command is missing (test/support/skip-reasons.ts), except in CI, where
 * .ci/run installs them from Debian's packages: there a missing command fails the file.
 *
 * The citation keys: `with the original keys` checks that the exports wrote each entry under the key
 * of the file it came from (so that the documents cited every original key), and that an export
 * imported into another workspace exports the same keys.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema } from '../support/api-types.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { buildUser, type TestUser } from '../support/factories.js';
import { toolchainSkipReason } from '../support/skip-reasons.js';
import { addResource, createWorkspace } from '../../src/workspaces/test-support/helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/toolchains/', import.meta.url));
const SOURCES = ['google-scholar', 'dblp', 'acl-anthology', 'arxiv', 'jabref', 'mendeley'];

const inCi = process.env.CI === 'true' || process.env.CI === '1';
const skipReason = toolchainSkipReason();
if (skipReason && inCi) throw new Error(`In CI the toolchain tests must run: ${skipReason}`);

/** What a command wrote and how it ended; never rejects (the logs are the evidence). */
function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

/** The keys of a `.bib` file's entries, in order (`@type{key,`). */
function bibKeys(bib: string): string[] {
  return [...bib.matchAll(/^\s*@\s*(?!string|comment|preamble)[a-z]+\s*\{\s*([^,\s]+)\s*,/gim)].map(
    (match) => match[1]!,
  );
}

/** The lines of a LaTeX log that report an error (`! …`) or a citation or reference left undefined. */
function latexProblems(log: string): string[] {
  return log
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('!') ||
        /Citation .* undefined|There were undefined (references|citations)|Empty bibliography/.test(
          line,
        ),
    );
}

const PDFLATEX = ['-interaction=nonstopmode', '-halt-on-error', '-file-line-error'];

/** Hand-made resources with LaTeX's special characters, accents and a page range in their fields. */
const SPECIAL = '& % $ # _ { } ~ ^ \\';
const ESCAPES = [
  {
    title: `Costs ${SPECIAL} of the Łódź naïve Ærø study`,
    type: 'article-journal',
    creators: [
      { role: 'author' as const, family: 'Świętochowski', given: 'Łukasz' },
      { role: 'author' as const, family: 'Müller', given: 'Jürgen' },
      { role: 'author' as const, literal: `R&D ${SPECIAL} Ltd` },
    ],
    containerTitle: `Science & Engineering 100% ${SPECIAL}`,
    publisher: "O'Reilly & Associates",
    volume: '7',
    issue: '2_a',
    pages: '12-19',
    issued: { year: 2021, month: 3 },
    doi: '10.1000/a_b(c)',
    url: 'https://example.org/a_b/%7Ec?q=1&r=50%25#frag~x',
    tags: [`tag ${SPECIAL}`, 'Ökologie'],
    notes: `Notes ${SPECIAL}`,
  },
  {
    title: `A book on TeX ^ ~ \\relax {braces} and $math$ by Gödel`,
    type: 'book',
    creators: [{ role: 'author' as const, family: 'Ørsted', given: 'Hans Christian' }],
    publisher: 'Springer',
    publisherPlace: 'Berlin & Heidelberg',
    pages: '1–300',
    issued: { year: 1999 },
  },
];

interface Exported {
  source: string;
  originalKeys: string[];
  bibtex: string;
  biblatex: string;
  csljson: string;
}

describe.skipIf(skipReason)('exports compiled by the toolchains', () => {
  let t: TestApp;
  let owner: TestUser;
  let dir: string;
  const exported: Exported[] = [];
  const timings: Record<string, number> = {};

  const exportOf = async (workspaceId: string, format: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/workspaces/${workspaceId}/export?format=${format}`,
      headers: owner.bearer,
    });
    if (res.statusCode !== 200) throw new Error(`export ${format}: ${res.statusCode} ${res.body}`);
    return res.body;
  };
  const importBib = async (workspaceId: string, bib: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/import`,
      headers: { ...owner.bearer, 'content-type': 'application/x-bibtex; charset=utf-8' },
      payload: bib,
    });
    if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body}`);
    return res.json<ApiSchema<'ImportReport'>>();
  };
  const exportAll = async (source: string, workspaceId: string, originalKeys: string[]) => {
    const [bibtex, biblatex, csljson] = await Promise.all(
      ['bibtex', 'biblatex', 'csljson'].map((format) => exportOf(workspaceId, format)),
    );
    exported.push({
      source,
      originalKeys,
      bibtex: bibtex!,
      biblatex: biblatex!,
      csljson: csljson!,
    });
  };

  /** The results of the three toolchains, run once for all the tests below. */
  let bibtexRun: { log: string; blg: string; bbl: string; bibtexCode: number };
  let biberRun: { log: string; blg: string; bbl: string; biberCode: number };
  let pandocRun: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    // Errors logged to the test's output: an import or export that fails says why.
    t = await buildTestApp({ env: { LOG_LEVEL: 'error' }, build: { logStream: process.stderr } });
    owner = await buildUser(t.app);
    dir = mkdtempSync(join(tmpdir(), 'rw-toolchains-'));
    await Promise.all(
      SOURCES.map(async (source) => {
        const original = readFileSync(join(FIXTURES, `${source}.bib`), 'utf8');
        const ws = await createWorkspace(t.app, owner, { name: source });
        const report = await importBib(ws.id, original);
        expect(report.counts.imported, source).toBe(bibKeys(original).length);
        await exportAll(source, ws.id, bibKeys(original));
      }),
    );
    const escapes = await createWorkspace(t.app, owner, { name: 'escapes' });
    for (const resource of ESCAPES) await addResource(t.app, owner, escapes.id, resource);
    await exportAll('escapes', escapes.id, []);

    for (const { source, bibtex, biblatex, csljson } of exported) {
      writeFileSync(join(dir, `${source}.bib`), bibtex);
      writeFileSync(join(dir, `${source}-biblatex.bib`), biblatex);
      writeFileSync(join(dir, `${source}.json`), csljson);
    }
    const bibtexKeys = exported.flatMap(({ bibtex }) => bibKeys(bibtex));
    const biblatexKeys = exported.flatMap(({ biblatex }) => bibKeys(biblatex));
    const cslKeys = exported.flatMap(({ csljson }) =>
      (JSON.parse(csljson) as Array<{ id: string }>).map((item) => item.id),
    );
    const names = exported.map(({ source }) => source);
    writeFileSync(
      join(dir, 'plain.tex'),
      [
        '\\documentclass{article}',
        '\\usepackage[T1]{fontenc}',
        '\\usepackage{lmodern}',
        '\\usepackage{url}',
        '\\begin{document}',
        `Cited: \\cite{${bibtexKeys.join(',')}}.`,
        '\\bibliographystyle{plain}',
        `\\bibliography{${names.join(',')}}`,
        '\\end{document}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'biblatex.tex'),
      [
        '\\documentclass{article}',
        '\\usepackage[T1]{fontenc}',
        '\\usepackage{lmodern}',
        '\\usepackage[backend=biber,style=numeric]{biblatex}',
        ...names.map((name) => `\\addbibresource{${name}-biblatex.bib}`),
        '\\begin{document}',
        `Cited: \\cite{${biblatexKeys.join(',')}}.`,
        '\\printbibliography',
        '\\end{document}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'pandoc.md'),
      `${cslKeys.map((key) => `Cited [@{${key}}].`).join('\n\n')}\n\n# References\n`,
    );

    const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await work();
      timings[name] = Math.round(performance.now() - started);
      return result;
    };
    const read = (file: string) => {
      try {
        return readFileSync(join(dir, file), 'utf8');
      } catch {
        return '';
      }
    };
    [bibtexRun, biberRun, pandocRun] = await Promise.all([
      timed('pdflatex+bibtex', async () => {
        await run('pdflatex', [...PDFLATEX, 'plain.tex'], dir);
        const bibtex = await run('bibtex', ['plain'], dir);
        await run('pdflatex', [...PDFLATEX, 'plain.tex'], dir);
        await run('pdflatex', [...PDFLATEX, 'plain.tex'], dir);
        return {
          log: read('plain.log'),
          blg: read('plain.blg'),
          bbl: read('plain.bbl'),
          bibtexCode: bibtex.code,
        };
      }),
      timed('pdflatex+biber', async () => {
        await run('pdflatex', [...PDFLATEX, 'biblatex.tex'], dir);
        const biber = await run('biber', ['biblatex'], dir);
        await run('pdflatex', [...PDFLATEX, 'biblatex.tex'], dir);
        await run('pdflatex', [...PDFLATEX, 'biblatex.tex'], dir);
        return {
          log: read('biblatex.log'),
          blg: read('biblatex.blg'),
          bbl: read('biblatex.bbl'),
          biberCode: biber.code,
        };
      }),
      timed('pandoc --citeproc', () =>
        run(
          'pandoc',
          [
            '--citeproc',
            ...names.map((name) => `--bibliography=${name}.json`),
            '-t',
            'plain',
            'pandoc.md',
          ],
          dir,
        ),
      ),
    ]);
    console.log(`toolchain timings (ms): ${JSON.stringify(timings)}`);
  }, 300_000);

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('pdflatex + BibTeX (plain): every key cited is found, no error, no undefined citation', () => {
    expect(bibtexRun.blg).not.toMatch(/I didn't find a database entry|error message/);
    expect(bibtexRun.bibtexCode, bibtexRun.blg).toBeLessThan(2);
    expect(latexProblems(bibtexRun.log)).toEqual([]);
    const cited = exported.flatMap(({ bibtex }) => bibKeys(bibtex));
    const items = [...bibtexRun.bbl.matchAll(/\\bibitem\{([^}]+)\}/g)].map((match) => match[1]);
    expect(items.sort()).toEqual([...cited].sort());
    expect(bibtexRun.log).toMatch(/Output written on plain\.pdf/);
  });

  it('pdflatex + biblatex + biber: every key found, no error, no undefined citation', () => {
    expect(biberRun.blg).not.toMatch(/ERROR -|I didn't find a database entry/);
    expect(biberRun.biberCode, biberRun.blg).toBe(0);
    expect(latexProblems(biberRun.log)).toEqual([]);
    const cited = exported.flatMap(({ biblatex }) => bibKeys(biblatex));
    const entries = [...biberRun.bbl.matchAll(/\\entry\{([^}]+)\}/g)].map((match) => match[1]);
    expect(entries.sort()).toEqual([...cited].sort());
    expect(biberRun.log).toMatch(/Output written on biblatex\.pdf/);
  });

  it('pandoc --citeproc on the CSL-JSON resolves every [@key]', () => {
    expect(pandocRun.code, pandocRun.stderr).toBe(0);
    expect(pandocRun.stderr).not.toMatch(/not found|WARNING/);
    // An unresolved citation is printed as the key in bold with a question mark.
    expect(pandocRun.stdout).not.toMatch(/\?\)|\?\]/);
    expect(pandocRun.stdout).toMatch(/References/);
  });

  /** The text of a `.bbl` as it prints: braces gone, white space as one space. */
  const printed = (bbl: string) => bbl.replace(/[{}]/g, '').replace(/\s+/g, ' ');

  it("keeps the titles' protected words through plain's lower-casing (.bbl)", () => {
    const bbl = printed(bibtexRun.bbl);
    // Each imported title's braces as the file had them (the rest of the title lower-cased by plain).
    for (const phrase of [
      'BERT: Pre-training of deep bidirectional transformers', // DBLP `{BERT:}`, ACL `{BERT}`
      'How multilingual is multilingual BERT?',
      'Monte Carlo sampling methods using Markov chains', // JabRef
      'Mastering the game of Go with deep neural networks',
      'Dropout as a Bayesian approximation',
      'Visualizing data using t-SNE',
      'CRISPR/Cas9 for genome editing',
      // Mendeley braces whole titles.
      'SciPy 1.0: fundamental algorithms for scientific computing in Python',
      'Deep Residual Learning for Image Recognition',
    ])
      expect(bbl).toContain(phrase);
    // A title without braces (arXiv's, Google Scholar's) by Better BibTeX's rule: BERT and SNE keep their capitals.
    expect(bibtexRun.bbl).toContain('{BERT}: Pre-training of deep bidirectional');
    expect(bibtexRun.bbl).toContain('t-{SNE}');
    // Plain did lower-case what nothing protects.
    expect(bbl).toContain('Attention is all you need');
  });

  it("escapes LaTeX's special characters in every field, writes accents and page ranges as BibTeX prints them, URLs and DOIs verbatim", () => {
    const escapes = exported.find(({ source }) => source === 'escapes')!;
    expect(escapes.bibtex).toContain('\\& \\% \\$ \\# \\_ \\textbraceleft{} \\textbraceright{}');
    // Classic BibTeX: letters past ASCII as LaTeX commands, braced as special characters.
    expect(escapes.bibtex).toContain("{\\L}{\\'o}d{\\'z}");
    expect(escapes.bibtex).toMatch(/author = \{\{\\'S\}wi\{\\k e\}tochowski, \{\\L\}ukasz/);
    // Every field but the keywords (a list no style prints) is ASCII.
    const fieldsButKeywords = escapes.bibtex
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('keywords'));
    expect(fieldsButKeywords.join('\n')).not.toMatch(/\P{ASCII}/u);
    // BibLaTeX: UTF-8, as biber reads it.
    expect(escapes.biblatex).toContain('Świętochowski, Łukasz');
    for (const text of [escapes.bibtex, escapes.biblatex]) {
      expect(text).toContain('pages = {12--19}');
      expect(text).toContain('pages = {1--300}');
      expect(text).toContain('doi = {10.1000/a_b(c)}');
      expect(text).toContain('url = {https://example.org/a_b/%7Ec?q=1&r=50%25#frag~x}');
    }
    // BibTeX printed them (plain sorts on the purified name: Müller, Ørsted, Świętochowski).
    const bbl = printed(bibtexRun.bbl);
    expect(bbl).toContain('12--19');
    expect(bibtexRun.bbl).toContain('{\\"u}ller');
    // biblatex has the date, the journal, the place and the verbatim fields as biber read them.
    expect(biberRun.bbl).toMatch(/\\field\{year\}\{2021\}/);
    expect(biberRun.bbl).toMatch(/\\field\{month\}\{3\}/);
    expect(biberRun.bbl).toMatch(/\\verb\{doi\}\s*\\verb 10\.1000\/a_b\(c\)/);
    expect(biberRun.bbl).toContain('Berlin \\& Heidelberg');
  });

  it('writes BibLaTeX fields: date, journaltitle, location, eprint with eprinttype', () => {
    const arxiv = exported.find(({ source }) => source === 'arxiv')!.biblatex;
    expect(arxiv).toMatch(/eprint = \{1706\.03762\},\n\s*eprinttype = \{arxiv\}/);
    const jabref = exported.find(({ source }) => source === 'jabref')!.biblatex;
    expect(jabref).toContain('journaltitle = {Human Molecular Genetics}');
    expect(jabref).toContain('date = {2014-09}');
    expect(jabref).toContain('location = {Cambridge, MA}');
    expect(jabref).not.toMatch(/^\s*(journal|year|month|address) =/m);
    expect(biberRun.bbl).toMatch(/\\field\{eprinttype\}\{arxiv\}/);
  });

  describe('with the original keys (stored citation keys)', () => {
    it('each export wrote every entry under the key of the file it came from, so the documents cited every original key', () => {
      for (const { source, originalKeys, bibtex, biblatex, csljson } of exported) {
        if (source === 'escapes') continue;
        const sorted = [...originalKeys].sort();
        expect(bibKeys(bibtex).sort(), source).toEqual(sorted);
        expect(bibKeys(biblatex).sort(), source).toEqual(sorted);
        expect(
          (JSON.parse(csljson) as Array<{ id: string }>).map((item) => item.id).sort(),
          source,
        ).toEqual(sorted);
      }
    });

    it('an export imported into another workspace exports the same keys', async () => {
      const again = exported.flatMap(({ source, bibtex, biblatex }) =>
        (
          [
            ['bibtex', bibtex],
            ['biblatex', biblatex],
          ] as const
        ).map(async ([format, text]) => {
          const ws = await createWorkspace(t.app, owner, { name: `${source} again` });
          await importBib(ws.id, text);
          return { what: `${source} ${format}`, text, again: await exportOf(ws.id, format) };
        }),
      );
      for (const { what, text, again: exportedAgain } of await Promise.all(again))
        expect(bibKeys(exportedAgain).sort(), what).toEqual(bibKeys(text).sort());
    });
  });
});
