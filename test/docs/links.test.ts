/**
 * The README is the entry point and sends readers on to docs/*.md for the details, so every relative
 * link and image in these pages must lead to a file that exists and, with a `#fragment`, to a heading
 * that GitHub gives that anchor. Links to other sites are not followed (no test reaches the internet).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { Lexer, walkTokens, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const PAGES = [
  'README.md',
  'src/search/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A heading's text as GitHub renders it before making its anchor: code spans and emphasis reduced to their text. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) =>
      'tokens' in token && token.tokens
        ? plainText(token.tokens)
        : 'text' in token
          ? String(token.text)
          : '',
    )
    .join('');
}

function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  // The callbacks here are synchronous: walkTokens' returned array holds nothing to wait for.
  void walkTokens(Lexer.lex(markdown), (token) => {
    if (token.type === 'heading')
      anchors.add(slugger.slug(plainText((token as Tokens.Heading).tokens)));
  });
  return anchors;
}

function relativeTargetsOf(markdown: string): string[] {
  const targets: string[] = [];
  void walkTokens(Lexer.lex(markdown), (token) => {
    if (token.type !== 'link' && token.type !== 'image') return;
    const href = (token as Tokens.Link | Tokens.Image).href;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) targets.push(href);
  });
  return targets;
}

/** What is wrong with one link of `page`, or null when it resolves. */
function brokenLink(page: string, href: string): string | null {
  const [path = '', fragment] = href.split('#', 2);
  const target =
    path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
  if (!existsSync(target)) return `${href}: no file ${relative(ROOT, target)}`;
  if (fragment === undefined || !target.endsWith('.md')) return null;
  return anchorsOf(readFileSync(target, 'utf8')).has(fragment)
    ? null
    : `${href}: no heading #${fragment} in ${relative(ROOT, target)}`;
}

describe('documentation links', () => {
  it.each(PAGES)('%s: every relative link and image resolves', (page) => {
    const targets = relativeTargetsOf(readFileSync(join(ROOT, page), 'utf8'));
    const broken = targets
      .map((href) => brokenLink(page, href))
      .filter((problem) => problem !== null);
    expect(broken).toEqual([]);
  });

  it('the README links to every page in docs/', () => {
    const linked = new Set(
      relativeTargetsOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map(
        (href) => href.split('#')[0],
      ),
    );
    const unlinked = PAGES.filter((page) => page.startsWith('docs/') && !linked.has(page));
    expect(unlinked).toEqual([]);
  });

  it('finds a broken file link and a broken anchor', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(
      /no file docs\/no-such-page\.md/,
    );
    expect(brokenLink('README.md', 'docs/api.md#no-such-heading')).toMatch(
      /no heading #no-such-heading/,
    );
    expect(brokenLink('README.md', '#quick-start')).toBeNull();
  });
});
