import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import { readFileSync } from 'node:fs';
const tricky = readFileSync('test/fixtures/citations/composed-tricky.bib', 'utf8').replace(/@article\{broken2020[\s\S]*?year   = \{2020\}\n/, '');
const d = new Cite(tricky, { forceType: '@biblatex/text', generateGraph: false }).data;
for (const x of d) console.log(JSON.stringify(x));
