import * as verbatim from './node_modules/@retorquere/bibtex-parser/dist/esm/verbatim.js';
import { readFileSync } from 'node:fs';
const v = (verbatim as any).parse(readFileSync('test/fixtures/citations/composed-tricky.bib', 'utf8'));
console.log(JSON.stringify({ ...v, input: undefined, linebreaks: undefined, default_strings: undefined }, null, 1).slice(0, 5000));
