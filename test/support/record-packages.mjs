// A module hook for a process a test starts (`node --import ./test/support/record-packages.mjs`):
// writes `loaded-package <name>` to stderr the first time a module of an npm package is resolved, so
// the test can tell which packages a process loads, and when.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
const seen = new Set();
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
  if (match && !seen.has(match[1])) {
    seen.add(match[1]);
    process.stderr.write('loaded-package ' + match[1] + '\\n');
  }
  return resolved;
}`)}`,
);
