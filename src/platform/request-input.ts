/**
 * What a request may carry before any route sees it. JSON bodies are parsed by Fastify's own parser
 * (prototype poisoning refused) after two checks it does not make: nesting deeper than
 * MAX_JSON_DEPTH is refused before parsing (recursive code further on, zod or a driver, would
 * overflow the stack on 5,000 levels), and a U+0000 in any string is refused naming its field
 * (PostgreSQL cannot store it in text, so it would surface as a 500). Query strings and path
 * parameters get the same U+0000 check. An empty body counts as `{}`, so that a POST whose fields
 * are all optional needs none.
 */
import type {
  FastifyBodyParser,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import { validationError } from './errors.js';

/** Deeper than any body the API documents (annotation highlights and resource data nest a few levels). */
const MAX_JSON_DEPTH = 64;

/** True when the JSON text opens more than `max` objects or arrays inside one another (strings skipped). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The path (`a.b.0`) of the first string or key holding U+0000, or null. Depth is bounded by the parser. */
export function pathOfNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (!value || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const here = [...path, key.replace(/\0/g, '\\u0000')];
    if (key.includes('\0')) return here;
    const found = pathOfNul(inner, here);
    if (found) return found;
  }
  return null;
}

const nulError = (field: string) =>
  validationError(field, 'contains_nul', `${field} must not contain U+0000`);

/** Query and path parameters of a request routed to a schema: a U+0000 is refused before validation. */
function refuseNulParameters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const found = pathOfNul(request.query) ?? pathOfNul(request.params);
  if (!found) return done();
  const error = nulError(found.join('.') || 'query');
  // A route that reports bad input itself (the summary stream, as an event) gets it as its validation error.
  if (request.routeOptions.attachValidation) {
    request.validationError = Object.assign(error, {
      validation: [],
      validationContext: 'querystring',
    });
    return done();
  }
  done(error);
}

/** A body-carrying route asked with no body and no content type: its schema judges `{}`. */
function emptyBodyAsObject(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.body == null && request.headers['content-type'] === undefined) request.body = {};
  done();
}

type PreValidationHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

function appendPreValidation(route: RouteOptions, hook: PreValidationHook): void {
  const existing = route.preValidation;
  route.preValidation = existing === undefined ? [hook] : [...[existing].flat(), hook];
}

export function installRequestInputChecks(app: FastifyInstance): void {
  // Fastify's own JSON parser is the callback kind (it calls `done`, returns nothing); its declared type
  // is the union of the callback and the promise kinds.
  const parseJson = app.getDefaultJsonParser('error', 'error') as Exclude<
    FastifyBodyParser<string>,
    (...args: never[]) => Promise<unknown>
  >;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, {});
    if (text.length > MAX_JSON_DEPTH && jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      return done(
        validationError(
          'body',
          'too_deep',
          `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
        ),
        undefined,
      );
    }
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      // The text spells a U+0000 as the escape `\u0000` (a raw one is not JSON): only then is the value walked.
      const found = text.includes('\\u0000') ? pathOfNul(value) : null;
      if (found) return done(nulError(found.join('.') || 'body'), undefined);
      done(null, value);
    });
  });
  // Hooks only on the routes that need them (every request pays for a hook).
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (!schema) return;
    if (schema.querystring || schema.params) appendPreValidation(route, refuseNulParameters);
    if (schema.body) appendPreValidation(route, emptyBodyAsObject);
  });
}
