/**
 * Library search: everything in the workspaces the user may read, found by PostgreSQL full-text search
 * (store.ts). Handler: validated input → user → the workspace filter authorised → search → present.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { findReadableWorkspace, readableWorkspaces } from '../workspaces/index.js';
import { presentLibraryHit } from './presenters.js';
import { parseLibraryQuery } from './query.js';
import {
  CitationKeySearchQuery,
  CitationKeySearchResponse,
  LibrarySearchQuery,
  LibrarySearchResponse,
  libraryErrors,
} from './schemas.js';
import { findCitationKeys, presentCitationKeyHit } from './citation-keys.js';
import { countLibraryHits, searchLibrary, type LibrarySearch } from './store.js';
import { hasMoreAfter } from '../platform/reply-shapes.js';

const tags = ['library'];

export async function libraryRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.get(
    '/api/library/search',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'searchLibrary',
        summary:
          'Search every workspace you can read: titles, authors, abstracts, notes, tags, annotations and PDF text',
        description:
          'One result per resource, best first (or by date or when added), with ' +
          'snippets saying where each hit is. q ≤ 500 characters in websearch ' +
          'syntax ("a phrase", or, -word; the last word is a prefix until a space ' +
          'follows it); limit 1-100 (default 20); offset ≤ 10,000.',
        querystring: LibrarySearchQuery,
        response: { 200: LibrarySearchResponse, ...libraryErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { q, workspaceId, tag, type, yearFrom, yearTo, sort, limit, offset } = request.query;
      // Another user's workspace is the same 404 as one that does not exist.
      if (workspaceId !== undefined) await findReadableWorkspace(db, user, workspaceId);
      const search: LibrarySearch = {
        readable: readableWorkspaces(user),
        workspaceId,
        query: q?.trim() ? parseLibraryQuery(q) : null,
        tag,
        type,
        yearFrom,
        yearTo,
        sort,
        limit,
        offset,
      };
      const rows = await searchLibrary(db, search);
      const total = rows[0]?.total ?? (offset > 0 ? await countLibraryHits(db, search) : 0);
      return {
        results: rows.map(presentLibraryHit),
        total,
        hasMore: offset + rows.length < total,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/api/library/citation-keys',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'findCitationKeys',
        summary:
          'Find citation keys in every workspace you can read, by key, title or author (for editor plug-ins and pickers)',
        description:
          'Each hit is a key with a short reference and its workspace: the key ' +
          'equal to q first, then keys beginning with it, then the others by key. ' +
          'q ≤ 200 characters; limit 1-50 (default 20).',
        querystring: CitationKeySearchQuery,
        response: { 200: CitationKeySearchResponse, ...libraryErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { q, limit } = request.query;
      const { rows, total } = await findCitationKeys(db, user, q, limit);
      return {
        results: rows.map(presentCitationKeyHit),
        total,
        hasMore: hasMoreAfter(0, rows.length, total),
      };
    },
  );
}
