/**
 * What a refused value is told, for every schema: zod's own words ("Invalid input: expected number,
 * received NaN") never reach a user. Each issue becomes what the field must be ("must be a whole
 * number", "is required"), and the error envelope puts the field's name in front of it
 * (platform/http-errors.ts): `year must be a whole number`. A schema's own message, where it gives one,
 * still wins; this covers every issue it leaves to zod. Installed once, when the app is built.
 */
import { z } from 'zod';
import type * as zc from 'zod/v4/core';

type Issue = zc.$ZodRawIssue;

const count = (n: number | bigint) =>
  typeof n === 'bigint' ? n.toString() : n.toLocaleString('en-US');

/** What zod calls a value's type, as a user would say it. */
const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  guid: 'a UUID',
  email: 'an e-mail address',
  url: 'a URL',
  datetime: 'an ISO 8601 date-time',
  date: 'an ISO 8601 date (YYYY-MM-DD)',
  time: 'an ISO 8601 time',
  duration: 'an ISO 8601 duration',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64 text',
  base64url: 'base64url text',
  jwt: 'a JSON Web Token',
};

const quoted = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value));

function units(origin: string, n: number | bigint): string {
  if (origin === 'string') return `${count(n)} ${n === 1 ? 'character' : 'characters'}`;
  if (origin === 'array' || origin === 'set') return `${count(n)} ${n === 1 ? 'item' : 'items'}`;
  if (origin === 'file') return `${count(n)} bytes`;
  return count(n);
}

function sizeProblem(
  origin: string,
  bound: number | bigint,
  inclusive: boolean,
  least: boolean,
): string {
  if (origin === 'string' && least && bound === 1 && inclusive) return 'must not be empty';
  if (origin === 'number' || origin === 'int' || origin === 'bigint' || origin === 'date') {
    const relation = least
      ? inclusive
        ? 'at least'
        : 'greater than'
      : inclusive
        ? 'at most'
        : 'less than';
    return `must be ${relation} ${count(bound)}`;
  }
  const verb = origin === 'string' ? 'be' : 'have';
  return `must ${verb} ${least ? 'at least' : 'at most'} ${units(origin, bound)}`;
}

/** What the value must be, as a phrase that follows the field's name. */
function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${KINDS[issue.expected] ?? issue.expected}`;
    case 'invalid_union': {
      if (issue.input === undefined) return 'is required';
      // The one form the value is of (a list, not text) says what is wrong with it.
      const ofItsForm = issue.errors.filter(
        (branch) =>
          !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
      );
      const inner = ofItsForm.length === 1 ? ofItsForm[0]![0] : undefined;
      return inner && inner.path.length === 0 ? inner.message : 'is not one of the accepted forms';
    }
    case 'too_small':
      return sizeProblem(issue.origin, issue.minimum, issue.inclusive ?? true, true);
    case 'too_big':
      return sizeProblem(issue.origin, issue.maximum, issue.inclusive ?? true, false);
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not in the accepted form';
      if (issue.format === 'starts_with') return `must start with "${issue.prefix}"`;
      if (issue.format === 'ends_with') return `must end with "${issue.suffix}"`;
      if (issue.format === 'includes') return `must contain "${issue.includes}"`;
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${count(issue.divisor)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quoted(issue.values)[0]}`
        : `must be one of ${quoted(issue.values).join(', ')}`;
    case 'unrecognized_keys':
      // The error envelope names the unknown field itself (platform/http-errors.ts).
      return 'is not a field of this request';
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'holds a value that is not accepted';
    default:
      return 'is not accepted';
  }
}

let installed = false;

/** Makes `describeIssue` zod's message for every issue a schema gives no message of its own. */
export function installValidationMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: describeIssue });
}
