/**
 * What the import's parsers make of real-shaped entries, read at the parse level (readCitations):
 * the CSL item each entry becomes, before anything turns it into a resource. Expectations follow
 * Zotero's BibTeX and RIS translators and CSL 1.0.2 (issue 35's list of what was lost).
 */
import { describe, expect, it } from 'vitest';
import { cslPlainText } from '../../records/index.js';
import { readCitations, type CslLike, type ParsedEntry } from './formats.js';
import { countEntriesAtLeast, detectFormat } from './scan.js';

/** The items of a file read as `format`, failing the test on an unreadable entry. */
function itemsOf(text: string, format: 'bibtex' | 'ris' | 'csljson'): CslLike[] {
  return readCitations(text, format).map((entry: ParsedEntry) => {
    if (!entry.ok) throw new Error(`entry ${entry.index} unreadable: ${entry.reason}`);
    return entry.item;
  });
}

const one = (text: string, format: 'bibtex' | 'ris' | 'csljson') => {
  const items = itemsOf(text, format);
  expect(items).toHaveLength(1);
  return items[0]!;
};

const ris = (type: string, lines: string) => `TY  - ${type}\n${lines.trim()}\nER  - \n`;

describe('BibTeX and BibLaTeX', () => {
  it('keeps names structured: organisations, suffixes, compound and hyphenated names, particles', () => {
    const item = one(
      String.raw`@book{names,
        author = {{Beijing Zoo} and {IBM} and Bennett, Jr., William and García Márquez, Gabriel and
                  Do, Minh Binh and Ma, Bo-Qiang and van der Berg, Jan and Ludwig van Beethoven},
        title = {Names}, year = 2000}`,
      'bibtex',
    );
    expect(item.author).toEqual([
      { literal: 'Beijing Zoo' },
      { literal: 'IBM' },
      { family: 'Bennett', given: 'William', suffix: 'Jr.' },
      { family: 'García Márquez', given: 'Gabriel' },
      { family: 'Do', given: 'Minh Binh' },
      { family: 'Ma', given: 'Bo-Qiang' },
      // The von part: of the family name in the comma form, printed with the given names (CSL's
      // dropping particle, the CSL specification's own example) in the `First von Last` form.
      { family: 'Berg', given: 'Jan', 'non-dropping-particle': 'van der' },
      { family: 'Beethoven', given: 'Ludwig', 'dropping-particle': 'van' },
    ]);
  });

  it('reads a family name written alone with its comma, and a field whose comma is missing at the end of its line', () => {
    const item = one(
      String.raw`@book{slips,
        author = {Doe Co., and {Beijing Zoo} and Blevins,},
        title = {Slips}
        year = 2000
        note = {kept}
      }`,
      'bibtex',
    );
    expect(item.author).toEqual([
      { family: 'Doe Co.' },
      { literal: 'Beijing Zoo' },
      { family: 'Blevins' },
    ]);
    expect(item).toMatchObject({
      title: 'Slips',
      issued: { 'date-parts': [[2000]] },
      note: 'kept',
    });
  });

  it("reads Mendeley's entry types as their CSL types, and reports every entry it cannot read", () => {
    const text = String.raw`
@web_page{w, title = {A page}, url = {https://example.org}, year = 2020}
@book_section{b, title = {A chapter}, booktitle = {The book}, author = {A, B}, year = 2020}
@magazine_article{m, title = {A story}, journal = {The Magazine}, year = 2020}
@newspaper_article{n, title = {News}, journal = {The Times}, year = 2020}
@article{broken, title = {Never closed, year = 2020
@misc{after, title = {After the broken one}}
@constructor{proto, title = {An entry type Object.prototype has}}
`;
    const entries = readCitations(text, 'bibtex');
    expect(countEntriesAtLeast(text, 'bibtex')).toBe(7);
    expect(detectFormat('@web_page{w, title = {x}}')).toBe('bibtex');
    expect(entries.map((entry) => (entry.ok ? entry.item.type : entry.reason))).toEqual([
      'webpage',
      'chapter',
      'article-magazine',
      'article-newspaper',
      'A brace is not closed before the next entry',
      'document',
      'document',
    ]);
    const [, chapter, magazine, news] = entries.map((entry) => (entry.ok ? entry.item : {}));
    expect(chapter).toMatchObject({ 'container-title': 'The book', title: 'A chapter' });
    expect(magazine).toMatchObject({ 'container-title': 'The Magazine' });
    expect(news).toMatchObject({ 'container-title': 'The Times' });
  });

  it('decodes LaTeX (accents, symbols, math, ligatures, formatting) and keeps a literal < with the rest of the title', () => {
    const item = one(
      String.raw`@article{latex,
        title = {{\AA}ngstr{\"o}m and {\aa} at 5$^\circ$C $\pm$ 2 in {\'\i}ndices \& x--y: \textit{in vivo} $\alpha$ when n<m holds},
        journal = {J}, year = 2001}`,
      'bibtex',
    );
    expect(item.title).toBe(
      'Ångström and å at 5°C ± 2 in índices & x–y: <i>in vivo</i> α when n<m holds',
    );
    expect(cslPlainText(item.title!)).toBe(
      'Ångström and å at 5°C ± 2 in índices & x–y: in vivo α when n<m holds',
    );
    expect(cslPlainText('T<sub>c</sub> of <span class="nocase">YBCO</span> if a<b')).toBe(
      'Tc of YBCO if a<b',
    );
  });

  it('keeps editors, translators, place, edition, accessed, genre, number, series, archive and eprint', () => {
    const item = one(
      String.raw`@book{full,
        author = {Tolstoy, Leo}, editor = {Smith, John}, translator = {Maude, Louise},
        title = {War and Peace}, address = {London}, publisher = {Taylor and Francis},
        edition = {2}, urldate = {2020-01-02}, type = {Novel}, number = {7}, volume = {1},
        series = {Classics}, archive = {Internet Archive}, year = 1922}`,
      'bibtex',
    );
    expect(item).toMatchObject({
      type: 'book',
      author: [{ family: 'Tolstoy', given: 'Leo' }],
      editor: [{ family: 'Smith', given: 'John' }],
      translator: [{ family: 'Maude', given: 'Louise' }],
      'publisher-place': 'London',
      publisher: 'Taylor and Francis',
      edition: '2',
      accessed: { 'date-parts': [[2020, 1, 2]] },
      genre: 'Novel',
      // A book's number is its number in the series (biblatex).
      'collection-number': '7',
      'collection-title': 'Classics',
      volume: '1',
      archive: 'Internet Archive',
      issued: { 'date-parts': [[1922]] },
    });
    const preprint = one(
      String.raw`@misc{arxiv, title = {P}, eprint = {2101.00001}, archiveprefix = {arXiv},
        primaryclass = {cs.IT}, year = 2021}`,
      'bibtex',
    );
    expect(preprint).toMatchObject({
      arxivId: '2101.00001',
      arxivPrimaryClass: 'cs.IT',
      archive: 'arXiv',
      archive_location: '2101.00001',
    });
  });

  it('takes institution and school as the publisher, and names a thesis kind as Zotero does', () => {
    const [thesis, report, manuscript, news] = itemsOf(
      String.raw`@phdthesis{t, title = {T}, author = {A, B}, school = {MIT}, year = 2001}
@techreport{r, title = {R}, institution = {NASA}, number = {TR-1}, year = 2001}
@unpublished{u, title = {U}, author = {A, B}, note = {Draft}, year = 2001}
@article{n, title = {N}, journal = {The Times}, entrysubtype = {newspaper}, year = 2001}`,
      'bibtex',
    );
    expect(thesis).toMatchObject({ type: 'thesis', publisher: 'MIT', genre: 'PhD Thesis' });
    expect(report).toMatchObject({ type: 'report', publisher: 'NASA', number: 'TR-1' });
    expect(report!.genre).toBeUndefined();
    expect(manuscript).toMatchObject({ type: 'manuscript', note: 'Draft' });
    expect(news).toMatchObject({ type: 'article-newspaper', 'container-title': 'The Times' });
  });

  it("reads ACM's conference location beside the publisher's address, and MathSciNet's fjournal, as Zotero does", () => {
    const [acm, ams] = itemsOf(
      String.raw`@inproceedings{acm, title = {T}, booktitle = {Proc. KDD}, location = {San Jose, California, USA},
        publisher = {ACM}, address = {New York, NY, USA}, year = 2007}
@article{ams, title = {T}, journal = {Adv. Math.}, fjournal = {Advances in Mathematics}, year = 2013}`,
      'bibtex',
    );
    expect(acm).toMatchObject({
      'publisher-place': 'New York, NY, USA',
      'event-place': 'San Jose, California, USA',
      publisher: 'ACM',
    });
    expect(ams).toMatchObject({
      'container-title': 'Advances in Mathematics',
      'container-title-short': 'Adv. Math.',
    });
  });

  it('keeps a valid DOI with brackets and angle brackets, the citation key and the title as written', () => {
    const doi = '10.1002/(SICI)1097-4636(199603)31:3<311::AID-JBM3>3.0.CO;2-[O]';
    const item = one(
      `@article{Key2020a, title = {The {DNA} of {\\em E. coli}}, doi = {${doi}}, year = 1996}`,
      'bibtex',
    );
    expect(item.DOI).toBe(doi);
    expect(item['citation-key']).toBe('Key2020a');
    expect(item.bibtex).toEqual({
      entryType: 'article',
      title: 'The {DNA} of {\\em E. coli}',
    });
    const keyless = one('@article{, title = {No key}}', 'bibtex');
    expect(keyless['citation-key']).toBeUndefined();
  });
});

describe('BibTeX titles keep their case protection', () => {
  it("as CSL nocase spans around each brace group BibTeX protects, not around a command's argument or a special character", () => {
    const written = String.raw`{BERT}: t-{SNE} on {CRISPR/Cas9} with {Monte Carlo}, {\"U}ber \textit{in {vivo}} $x^{2}$ and {\em E. coli} at \'{E}cole`;
    const item = one(`@article{k, title = {${written}}}`, 'bibtex');
    expect(item.title).toBe(
      '<span class="nocase">BERT</span>: t-<span class="nocase">SNE</span> on ' +
        '<span class="nocase">CRISPR/Cas9</span> with <span class="nocase">Monte Carlo</span>, ' +
        'Über <i>in vivo</i> x² and <i>E. coli</i> at École',
    );
    // The title as written is still there, without any mark.
    expect(item.bibtex?.title).toBe(written);
  });

  it("a doubly braced title is protected whole; a crossref parent's title, the child's container, carries no protection", () => {
    const [whole, child] = [
      one('@article{w, title = {{Deep Residual Learning}}, journal = {J}}', 'bibtex'),
      readCitations(
        String.raw`@inproceedings{c, title = {{GPT} Child}, crossref = {p}}
@proceedings{p, title = {Proceedings of {ACL}}, year = 2020}`,
        'bibtex',
      ).find((entry) => entry.key === 'c'),
    ];
    expect(whole.title).toBe('<span class="nocase">Deep Residual Learning</span>');
    expect(child?.ok && child.item).toMatchObject({
      title: '<span class="nocase">GPT</span> Child',
      'container-title': 'Proceedings of ACL',
    });
  });
});

describe('RIS', () => {
  it('reads names as Family, Given, Suffix; a name without a comma is an organisation', () => {
    const item = one(
      ris(
        'JOUR',
        `AU  - Do, Minh Binh
AU  - Bennett, William, Jr.
AU  - van der Berg, Jan
AU  - World Health Organization
TI  - Names`,
      ),
      'ris',
    );
    expect(item.author).toEqual([
      { family: 'Do', given: 'Minh Binh' },
      { family: 'Bennett', given: 'William', suffix: 'Jr.' },
      { family: 'Berg', given: 'Jan', 'non-dropping-particle': 'van der' },
      { literal: 'World Health Organization' },
    ]);
  });

  it("reads names without a space after the comma, AU and A1 lines in the file's order", () => {
    const item = one(
      ris('JOUR', 'A1  - Baldwin,S.A.\nAU  - Fugaccia, I.\nA1  - Brown,D.R.\nTI  - Order'),
      'ris',
    );
    expect(item.author).toEqual([
      { family: 'Baldwin', given: 'S.A.' },
      { family: 'Fugaccia', given: 'I.' },
      { family: 'Brown', given: 'D.R.' },
    ]);
  });

  it('reads a comma inside a name part as well as RIS allows: suffixes that read as one, organisations whole', () => {
    const item = one(
      ris(
        'JOUR',
        [
          'AU  - Doe, John, Jr.',
          'AU  - Roe, Richard, Jr., III',
          "AU  - Aubignac, François Hédelin, abbé d'",
          'AU  - Doe, John,! Jr.',
          'AU  - Council on Cardiopulmonary, Critical Care, Perioperative and Resuscitation',
          // A family name alone, and a person's name with an organisation's word: as written.
          'AU  - Beijing Zoo,',
          'AU  - Consortium, DAISY',
          'TI  - Commas',
        ].join('\n'),
      ),
      'ris',
    );
    expect(item.author).toEqual([
      { family: 'Doe', given: 'John', suffix: 'Jr.' },
      { family: 'Roe', given: 'Richard', suffix: 'Jr., III' },
      // Not a suffix ("abbé d'" is lower-case): the given names, as written.
      { family: 'Aubignac', given: "François Hédelin, abbé d'" },
      { family: 'Doe', given: 'John,! Jr.' },
      { literal: 'Council on Cardiopulmonary, Critical Care, Perioperative and Resuscitation' },
      { family: 'Beijing Zoo' },
      { family: 'Consortium', given: 'DAISY' },
    ]);
  });
  it("reads Citavi's library and call number (H1, H2) and Wiley's issue in M1", () => {
    const [citavi, wiley] = itemsOf(
      ris('GEN', 'TI  - C\nH1  - UB Mannheim\nH2  - 300 QN 100') +
        ris('JOUR', 'TI  - W\nVL  - 9\nM1  - 3'),
      'ris',
    );
    expect(citavi).toMatchObject({ source: 'UB Mannheim', 'call-number': '300 QN 100' });
    expect(wiley).toMatchObject({ volume: '9', issue: '3' });
  });

  it("reads a patent's issuing authority (A2) and application number (M1), and names written with one part", () => {
    const item = one(
      ris(
        'PAT',
        'TI  - Method\nA1  - Burger,D.R.\nA1  - Doe Co.,\nA1  - , Banksy\nA2  - Epitope,I.\nM1  - G01N 33/569',
      ),
      'ris',
    );
    expect(item).toMatchObject({ authority: 'Epitope,I.', 'call-number': 'G01N 33/569' });
    expect(item).not.toHaveProperty('editor');
    expect(item.author).toEqual([
      { family: 'Burger', given: 'D.R.' },
      { family: 'Doe Co.' },
      { given: 'Banksy' },
    ]);
  });

  it('keeps TI and AU when TT and TA are there: TT is a note (as Zotero keeps it), TA a translator', () => {
    const item = one(
      ris(
        'JOUR',
        `AU  - Tolstoy, Leo
TI  - Voina i mir
TT  - War and Peace
TA  - Maude, Louise
N1  - First note
N1  - Second note`,
      ),
      'ris',
    );
    expect(item).toMatchObject({
      title: 'Voina i mir',
      author: [{ family: 'Tolstoy', given: 'Leo' }],
      translator: [{ family: 'Maude', given: 'Louise' }],
      note: 'First note\n\nSecond note\n\nTranslated Title: War and Peace',
    });
  });

  it('reads every type with its authors: WEB, NEWS, MPCT, MUSIC, CASE, STAT, BILL; CONF keeps its year', () => {
    const types = ['WEB', 'NEWS', 'MPCT', 'MUSIC', 'CASE', 'STAT', 'BILL', 'CONF'];
    const items = itemsOf(
      types.map((type) => ris(type, `AU  - Doe, Jane\nTI  - A ${type}\nPY  - 2019`)).join('\n'),
      'ris',
    );
    expect(items.map((item) => item.type)).toEqual([
      'webpage',
      'article-newspaper',
      'motion_picture',
      'song',
      'legal_case',
      'legislation',
      'bill',
      'paper-conference',
    ]);
    for (const item of items) {
      expect(item.author).toEqual([{ family: 'Doe', given: 'Jane' }]);
      expect(item.issued).toEqual({ 'date-parts': [[2019]] });
    }
    const [y1, da] = itemsOf(
      ris('CONF', 'TI  - Y1\nY1  - 2018///') +
        ris('CONF', 'TI  - DA\nPY  - 2017\nDA  - 2017/06/05'),
      'ris',
    );
    expect(y1!.issued).toEqual({ 'date-parts': [[2018]] });
    expect(da!.issued).toEqual({ 'date-parts': [[2017, 6, 5]] });
  });

  it('reads tag lines with one space, or none, around the dash', () => {
    const text =
      'TY - JOUR\nAU - One, Space\nTI - One space\nPY - 2000\nER - \n\nTY -BOOK\nTI -None\nER -\n';
    expect(detectFormat(text)).toBe('ris');
    expect(itemsOf(text, 'ris')).toEqual([
      {
        type: 'article-journal',
        title: 'One space',
        author: [{ family: 'One', given: 'Space' }],
        issued: { 'date-parts': [[2000]] },
        ris: { type: 'JOUR' },
      },
      { type: 'book', title: 'None', ris: { type: 'BOOK' } },
    ]);
  });

  it('keeps editors, series editors and translators with their roles, and every other field', () => {
    const chapter = one(
      ris(
        'CHAP',
        `AU  - Author, A.
A2  - Editor, Ed
ED  - Other, Editor
A3  - Series, Sam
A4  - Translator, Tom
TI  - Chapter
T2  - The Book
T3  - The Series
CY  - Berlin
PB  - Springer
ET  - 2nd
PY  - 2015
Y2  - 2020/01/02
M3  - Review
VL  - 12
IS  - 3
SP  - 5
EP  - 9
SN  - 978-3-16-148410-0
AN  - 12345
DB  - PubMed
UR  - https://example.org/chapter
L1  - https://example.org/chapter.pdf
DO  - 10.1000/xyz`,
      ),
      'ris',
    );
    expect(chapter).toEqual({
      type: 'chapter',
      ris: { type: 'CHAP' },
      title: 'Chapter',
      author: [{ family: 'Author', given: 'A.' }],
      editor: [
        { family: 'Other', given: 'Editor' },
        { family: 'Editor', given: 'Ed' },
      ],
      'collection-editor': [{ family: 'Series', given: 'Sam' }],
      translator: [{ family: 'Translator', given: 'Tom' }],
      'container-title': 'The Book',
      'collection-title': 'The Series',
      'publisher-place': 'Berlin',
      publisher: 'Springer',
      edition: '2nd',
      issued: { 'date-parts': [[2015]] },
      accessed: { 'date-parts': [[2020, 1, 2]] },
      genre: 'Review',
      volume: '12',
      issue: '3',
      page: '5-9',
      ISBN: '978-3-16-148410-0',
      archive_location: '12345',
      archive: 'PubMed',
      URL: 'https://example.org/chapter',
      attachments: [
        {
          url: 'https://example.org/chapter.pdf',
          mimeType: 'application/pdf',
          title: 'Full Text PDF',
        },
      ],
      DOI: '10.1000/xyz',
    });
    const [article, book] = itemsOf(
      ris('JOUR', 'TI  - J\nSN  - 0028-0836') +
        ris('BOOK', 'TI  - B\nA2  - Series, Ed\nA3  - Volume, Ed\nSN  - 0-306-40615-2'),
      'ris',
    );
    expect(article).toMatchObject({ ISSN: '0028-0836' });
    expect(book).toMatchObject({
      ISBN: '0-306-40615-2',
      editor: [{ family: 'Volume', given: 'Ed' }],
      'collection-editor': [{ family: 'Series', given: 'Ed' }],
    });
  });
});

describe('CSL-JSON', () => {
  it('passes every CSL 1.0.2 variable through untouched', () => {
    const item = {
      id: 'x1',
      type: 'chapter',
      title: 'A <i>title</i> with n<m',
      'title-short': 'A title',
      author: [
        { family: 'Berg', given: 'Jan', 'non-dropping-particle': 'van der', suffix: 'Jr.' },
        { literal: 'Beijing Zoo' },
      ],
      editor: [{ family: 'Ma', given: 'Bo-Qiang' }],
      translator: [{ family: 'Maude', given: 'Louise' }],
      'collection-editor': [{ family: 'Series', given: 'Sam' }],
      issued: { 'date-parts': [[2001, 5]], season: 2, circa: true },
      accessed: { literal: 'Spring 2020' },
      'original-date': { 'date-parts': [['1869']] },
      'container-title': 'Book',
      'collection-title': 'Series',
      'collection-number': 4,
      'publisher-place': 'London',
      edition: 2,
      volume: '3',
      issue: 4,
      page: '5-9',
      'number-of-pages': 300,
      genre: 'Novel',
      medium: 'Print',
      archive: 'Archive',
      archive_location: 'Box 1',
      'call-number': 'PR1',
      DOI: '10.1000/xyz',
      ISBN: '978-3-16-148410-0',
      custom: { anything: ['kept'] },
    };
    expect(itemsOf(JSON.stringify([item]), 'csljson')).toEqual([item]);
  });
});
