/**
 * Differences the interop measurement finds that are right, each with its reason (docs/testing.md,
 * "Interop figures", says more): counted apart from the figures, never as unchanged, so that the
 * figures say what comes out as it went in and these say what does not, and why.
 */
import { CREATOR_ROLES } from '../../src/records/index.js';
import type { VariableDifference } from './compare.js';
import type { CslName } from './zotero-csl.js';

/** HTML tags other than CSL's rich text (`<i>`, `<b>`, `<sup>`, `<sub>`, `<sc>`, CSL's spans). */
const OTHER_HTML =
  /<(?!\/?(?:i|b|sup|sub|sc)>|span\s+(?:style="font-variant:\s*small-caps;?"|class="(?:nocase|nodecor)")\s*>|\/span>)\/?[a-z][^<>]*>/i;

/** A CSL-JSON variable that comes out otherwise, rightly: why, or undefined when it is not one of these. */
export function documentedCslDifference(difference: VariableDifference): string | undefined {
  const { variable, expected, actual } = difference;
  if (/<[a-z/]/i.test(expected) && (CREATOR_ROLES as readonly string[]).includes(variable))
    return 'markup inside a name: names are plain text';
  if (OTHER_HTML.test(expected)) return 'HTML other than CSL rich text is removed';
  if (variable === 'URL' && !actual && !/^https?:\/\//i.test(expected))
    return "a resource's URL is http(s)";
  if (variable === 'DOI' && /^https?:\/\/(?:dx\.)?doi\.org\//i.test(expected))
    return 'DOI kept bare';
  return undefined;
}

/**
 * Why an author list read back from RIS rightly differs: RIS has no escapes and reads a comma as the
 * `Family, Given` separator, so a name kept whole that holds one ("Smith, John") cannot come back.
 */
export function documentedRisNames(before: unknown): string | undefined {
  const names = Array.isArray(before) ? (before as CslName[]) : [];
  return names.some((name) => !name.family && name.literal?.includes(','))
    ? 'RIS: a name kept whole with a comma in it'
    : undefined;
}
