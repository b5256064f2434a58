import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanPdfText } from '../clean-text.js';
import { summarize } from '../summarize.js';
import { PdfTextError } from './errors.js';
import { closePdfExtractors, extractPdfText, readPdfInfo, type PdfEngine } from './extract.js';
import { isPdfinfoAvailable, isPdftotextAvailable } from './pdftotext-engine.js';
import {
  makeEncryptedPdf,
  makeImageOnlyPdf,
  makeTextPdf,
  makeTwoColumnPdf,
} from './test-support/make-pdf.js';

const fixture = (name: string): Buffer =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/pdfs/${name}`, import.meta.url)));

// Full, justified-looking columns as in a paper (very short columns make poppler read block by block).
const LEFT = Array.from(
  { length: 6 },
  (_, i) =>
    `Alpha paragraph ${i + 1} opens the left column with a sentence about ` +
    `apples. It continues with a second sentence about orchards and ` +
    `harvests. A third sentence closes the paragraph.`,
);
const RIGHT = Array.from(
  { length: 6 },
  (_, i) =>
    `Omega paragraph ${i + 1} belongs to the right column and talks about rivers. Its second sentence is about bridges and boats. The last one ends it.`,
);

async function expectPdfError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PdfTextError);
  expect((error as PdfTextError).code).toBe(code);
}

const hasPdftotext = await isPdftotextAvailable();
const engines: Array<{ engine: PdfEngine; available: boolean }> = [
  { engine: 'pdfjs', available: true },
  { engine: 'pdftotext', available: hasPdftotext },
];

afterAll(async () => {
  await closePdfExtractors();
});

for (const { engine, available } of engines) {
  describe.skipIf(!available)(`extractPdfText with ${engine}`, () => {
    it('extracts a generated text PDF', async () => {
      const pdf = await makeTextPdf([
        'Graphene membranes filter salt from seawater.',
        'The second paragraph talks about energy.',
      ]);
      const result = await extractPdfText(pdf, { engine });
      expect(result.engine).toBe(engine);
      expect(result.pages).toBe(1);
      expect(result.truncated).toBe(false);
      expect(result.text).toContain('Graphene membranes filter salt from seawater.');
      expect(result.text).toContain('The second paragraph talks about energy.');
    });

    it('reads a generated two-column page column by column', async () => {
      const pdf = await makeTwoColumnPdf('A Title Across Both Columns', LEFT, RIGHT);
      const { text } = await extractPdfText(pdf, { engine });
      const title = text.indexOf('A Title Across Both Columns');
      const lastLeft = text.indexOf('Alpha paragraph 6');
      const firstRight = text.indexOf('Omega paragraph 1');
      expect(title).toBeGreaterThanOrEqual(0);
      expect(lastLeft).toBeGreaterThan(title);
      expect(firstRight).toBeGreaterThan(lastLeft);
    });

    it('fails with no_text on an image-only PDF', async () => {
      await expectPdfError(extractPdfText(await makeImageOnlyPdf(), { engine }), 'no_text');
    });

    it('fails with encrypted on a password-protected PDF', async () => {
      await expectPdfError(
        extractPdfText(await makeEncryptedPdf('Secret findings about graphene.'), { engine }),
        'encrypted',
      );
    });

    it('fails with invalid on a damaged PDF', async () => {
      const pdf = await makeTextPdf(['Some text that will be cut off.']);
      await expectPdfError(extractPdfText(pdf.subarray(0, 200), { engine }), 'invalid');
    });

    it('caps the text and says so', async () => {
      const result = await extractPdfText(fixture('specter-acl2020-2col.pdf'), {
        engine,
        maxChars: 5_000,
      });
      expect(result.truncated).toBe(true);
      expect(result.text.length).toBeLessThanOrEqual(5_000);
      expect(result.text).toContain('SPECTER');
    });

    it('stops at its deadline', async () => {
      await expectPdfError(
        extractPdfText(fixture('specter-acl2020-2col.pdf'), { engine, timeoutMs: 1 }),
        'timeout',
      );
    });

    it('stops when aborted', async () => {
      const controller = new AbortController();
      const pending = extractPdfText(fixture('specter-acl2020-2col.pdf'), {
        engine,
        signal: controller.signal,
      });
      controller.abort();
      await expectPdfError(pending, 'aborted');
    });

    it('still works after a worker or process was stopped', async () => {
      const result = await extractPdfText(fixture('literature-graph-naacl2018-2col.pdf'), {
        engine,
      });
      expect(result.pages).toBe(8);
    });

    it('reads real two-column papers: abstract before introduction, ligatures and hyphenation undone', async () => {
      const specter = cleanPdfText(
        (await extractPdfText(fixture('specter-acl2020-2col.pdf'), { engine })).text,
      );
      expect(specter).toContain(
        'We propose SPECTER, a new method to generate document-level embedding',
      );
      expect(specter.indexOf('Representation learning is a critical ingredient')).toBeLessThan(
        specter.indexOf('Introduction'),
      );
      expect(specter).not.toMatch(/[\uFB00-\uFB06]/);
      expect(specter).not.toContain('Bibliography');

      const graph = cleanPdfText(
        (await extractPdfText(fixture('literature-graph-naacl2018-2col.pdf'), { engine })).text,
      );
      expect(graph).toContain(
        'We describe a deployed scalable system for organizing published scientific literature',
      );
    });

    it('extracts a structured-abstract journal paper that summarises sensibly', async () => {
      const { text, pages } = await extractPdfText(fixture('qi-malawi-bmc2014.pdf'), { engine });
      expect(pages).toBe(10);
      const summary = summarize({ text: cleanPdfText(text), mode: 'deep' });
      expect(summary.bullets).toHaveLength(6);
      expect(summary.tags.join(' ').toLowerCase()).toMatch(/quality|staff|care/);
    });
  });
}

describe('extractPdfText: input checks', () => {
  it('rejects bytes that are not a PDF', async () => {
    await expectPdfError(extractPdfText(Buffer.from('<html>not a pdf</html>')), 'not_pdf');
    await expectPdfError(extractPdfText(new Uint8Array(0)), 'not_pdf');
  });

  it('uses pdftotext by default when the machine has it', async () => {
    const result = await extractPdfText(
      await makeTextPdf(['Default engine check with enough letters in it.']),
    );
    expect(result.engine).toBe(hasPdftotext ? 'pdftotext' : 'pdfjs');
  });
});

describe('extractPdfText with pdf.js: jobs waiting for a worker', () => {
  it('run one after another and each gets its text', async () => {
    const pdfs = await Promise.all(
      ['First', 'Second', 'Third'].map((word) =>
        makeTextPdf([`${word} document about graphene membranes.`]),
      ),
    );
    const results = await Promise.all(pdfs.map((pdf) => extractPdfText(pdf, { engine: 'pdfjs' })));
    expect(results.map((result) => result.text.trim().split(' ')[0])).toEqual([
      'First',
      'Second',
      'Third',
    ]);
  });

  it('leave the queue at once when their caller aborts', async () => {
    const busy = extractPdfText(fixture('specter-acl2020-2col.pdf'), { engine: 'pdfjs' });
    const controller = new AbortController();
    const waiting = extractPdfText(fixture('literature-graph-naacl2018-2col.pdf'), {
      engine: 'pdfjs',
      signal: controller.signal,
    });
    controller.abort();
    await expectPdfError(waiting, 'aborted');
    expect((await busy).pages).toBe(13);
  });
});

describe('readPdfInfo', () => {
  const specter = fixture('specter-acl2020-2col.pdf');
  for (const engine of ['auto', 'pdfjs'] as const) {
    it(`reads Title and Author from a real paper's information dictionary (${engine}${engine === 'auto' ? ': pdfinfo when installed' : ''})`, async () => {
      if (engine === 'auto') expect(typeof (await isPdfinfoAvailable())).toBe('boolean');
      const info = await readPdfInfo(specter, { engine });
      expect(info.title).toBe(
        'SPECTER: Document-level Representation Learning using Citation-informed Transformers',
      );
      expect(info.author).toBe(
        'Arman Cohan ; Sergey Feldman ; Iz Beltagy ; Doug Downey ; Daniel Weld',
      );
    });
  }

  it('gives nothing for a PDF without them, and refuses a non-PDF', async () => {
    expect(
      await readPdfInfo(await makeTextPdf(['Plain text and no metadata of note.'])),
    ).toMatchObject({ author: undefined });
    await expectPdfError(readPdfInfo(Buffer.from('not a pdf at all')), 'not_pdf');
  });
});
