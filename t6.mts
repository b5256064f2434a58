import { parse } from '@retorquere/bibtex-parser';
parse('@article{a, title={x}}', { english: false });
const mk = (f: (i: number) => string) => Array.from({ length: 200 }, (_, i) => `@article{k${i},\n${f(i)}\n}`).join('\n');
const cases: Record<string, string> = {
  titleonly: mk((i) => `title = {Plain title ${i}}`),
  authors: mk((i) => `title = {T ${i}}, author = {Smith, John and Doe, Jane and van der Berg, Jan}`),
  abstractPlain: mk((i) => `title = {T ${i}}, abstract = {${'We study how language models use long contexts. '.repeat(20)}}`),
  abstractBraces: mk((i) => `title = {T ${i}}, abstract = {${'We study how {transformer} language models use long contexts. '.repeat(20)}}`),
  accents: mk((i) => `title = {M{\\"u}ller caf\\'{e} ${i}}`),
};
for (const [name, text] of Object.entries(cases)) {
  const t = Date.now();
  parse(text, { english: false });
  console.log(name, Date.now() - t, 'ms for 200');
}
