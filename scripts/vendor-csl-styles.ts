/**
 * Packs the official CSL style repository (https://github.com/citation-style-language/styles, a local
 * checkout given as the argument) into csl-styles/: `styles.pack` holds every independent style's XML,
 * each compressed on its own with brotli and written one after another; `styles.json.br` is the index
 * (JSON, brotli-compressed): per
 * style its id, title, short title, and where its XML lies in the pack, or, for a dependent style (a
 * journal that cites as another style does), the id of that parent. The service reads one style from the
 * pack when it is first asked for (src/workspaces/cite/styles.ts). Run it again to take a newer
 * repository: `npx tsx scripts/vendor-csl-styles.ts ../styles` (and say its commit in csl-styles/README.md).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';

const source = process.argv[2];
if (!source)
  throw new Error(
    'usage: tsx scripts/vendor-csl-styles.ts <path to a checkout of citation-style-language/styles>',
  );
const target = new URL('../csl-styles/', import.meta.url);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name) => name === 'link',
});

interface StyleInfo {
  title: string;
  shortTitle?: string;
  parent?: string;
}

const ID_PREFIX = 'http://www.zotero.org/styles/';
function infoOf(xml: string): StyleInfo {
  const info = (parser.parse(xml) as { style: { info: Record<string, unknown> } }).style.info;
  const text = (value: unknown) =>
    typeof value === 'string'
      ? value
      : typeof value === 'object' && value && '#text' in value
        ? String(value['#text'])
        : undefined;
  const links = (info.link as Array<{ href: string; rel: string }> | undefined) ?? [];
  const parent = links.find((link) => link.rel === 'independent-parent')?.href;
  const shortTitle = text(info['title-short']);
  return {
    title: text(info.title) ?? '',
    ...(shortTitle ? { shortTitle } : {}),
    ...(parent ? { parent: parent.slice(ID_PREFIX.length) } : {}),
  };
}

const chunks: Buffer[] = [];
let offset = 0;
const index: Array<StyleInfo & { id: string; at?: [number, number] }> = [];
for (const file of readdirSync(source)
  .filter((name) => name.endsWith('.csl'))
  .sort()) {
  const xml = readFileSync(join(source, file));
  const packed = brotliCompressSync(xml, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: xml.length,
    },
  });
  index.push({
    id: file.slice(0, -'.csl'.length),
    ...infoOf(xml.toString('utf8')),
    at: [offset, packed.length],
  });
  chunks.push(packed);
  offset += packed.length;
}
const dependent = join(source, 'dependent');
for (const file of readdirSync(dependent)
  .filter((name) => name.endsWith('.csl'))
  .sort()) {
  const info = infoOf(readFileSync(join(dependent, file), 'utf8'));
  if (!info.parent) continue;
  index.push({ id: file.slice(0, -'.csl'.length), ...info });
}
writeFileSync(new URL('styles.pack', target), Buffer.concat(chunks));
const json = Buffer.from(JSON.stringify(index.sort((a, b) => a.id.localeCompare(b.id))));
writeFileSync(
  new URL('styles.json.br', target),
  brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
);
console.log(
  `${index.length} styles (${chunks.length} independent), pack ${(offset / 1e6).toFixed(1)} MB`,
);
