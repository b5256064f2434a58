/**
 * The Porter (1980) stemming algorithm, as published in "An algorithm for suffix stripping"
 * (M. F. Porter, Program 14(3)), for lower-case English words. Used to group inflected forms
 * ("models", "modeling", "modelled") when counting term frequency, and by the ROUGE evaluation.
 */

function isConsonant(word: string, i: number): boolean {
  const c = word.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(word, i - 1); // y
  return true;
}

/** m() of the paper: the number of VC sequences in word[0..end). */
function measure(word: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(word, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(word, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(word, i)) i++;
  }
  return n;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o of the paper: stem ends cvc, where the second c is not w, x or y. */
function endsCvc(word: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(word, end - 1) || isConsonant(word, end - 2) || !isConsonant(word, end - 3)) return false;
  const last = word[end - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

type Rule = readonly [suffix: string, replacement: string];

/** Replaces the first matching suffix when the remaining stem has measure > minMeasure. */
function applyRules(word: string, rules: readonly Rule[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (measure(word, stemEnd) > minMeasure) return word.slice(0, stemEnd) + replacement;
    return word;
  }
  return word;
}

const STEP2_RULES: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3_RULES: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4_SUFFIXES = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate',
  'iti', 'ous', 'ive', 'ize',
] as const;

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    // unchanged
  } else if (w.endsWith('s')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let stripped: string | undefined;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stripped = w.slice(0, -3);
  if (stripped === undefined) return w;

  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsWithDoubleConsonant(w)) {
    const last = w[w.length - 1];
    if (last !== 'l' && last !== 's' && last !== 'z') return w.slice(0, -1);
    return w;
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + 'e';
  return w;
}

function step1c(word: string): string {
  if (word.endsWith('y') && hasVowel(word, word.length - 1)) return word.slice(0, -1) + 'i';
  return word;
}

function step4(word: string): string {
  for (const suffix of STEP4_SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (suffix === 'ion') {
      const before = word[stemEnd - 1];
      if (measure(word, stemEnd) > 1 && (before === 's' || before === 't')) return word.slice(0, stemEnd);
      return word;
    }
    if (measure(word, stemEnd) > 1) return word.slice(0, stemEnd);
    return word;
  }
  return word;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

/** Stems one lower-case word. Words of one or two letters and words with non a–z letters are returned as they are. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = applyRules(w, STEP2_RULES, 0);
  w = applyRules(w, STEP3_RULES, 0);
  w = step4(w);
  w = step5(w);
  return w;
}
