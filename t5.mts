import { bibtexFile } from './bench/import.js';
import { parse } from '@retorquere/bibtex-parser';
import * as verbatim from './node_modules/@retorquere/bibtex-parser/dist/esm/verbatim.js';
const text = bibtexFile(200);
parse(bibtexFile(3), { english: false });
for (const [name, opts] of [['default-noeng', { english: false, applyCrossRef: true, unsupported: 'ignore' }], ['raw', { english: false, raw: true }], ['noabstract-fieldmode', { english: false, fieldMode: { abstract: 'verbatim' } }]] as const) {
  const t = Date.now();
  parse(text, opts as never);
  console.log(name, Date.now() - t, 'ms for 200');
}
const t = Date.now();
const v = (verbatim as any).parse(text);
console.log('verbatim', Date.now() - t, 'ms', Object.keys(v), v.entries?.length);
console.log(JSON.stringify(v.entries[0]).slice(0, 600));
