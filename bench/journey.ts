/**
 * The journey: the requests a signed-in researcher's browser makes on a visit, as one mix. Each
 * autocannon connection goes through the steps below in order, again and again; every pass is a
 * visit of the next seeded user (round-robin), who:
 *
 *  1. GET  /api/auth/session                      the app starts and asks who is signed in
 *  2. GET  /api/search?q=…                        a search whose provider answers are cached
 *  3. GET  /api/workspaces                        the workspace list
 *  4. GET  /api/workspaces/{id}                   a workspace with 20 resources and 40 annotations
 *  5. POST /api/workspaces/{id}/resources         saves a result (a new URL every time)
 *  6. POST /api/resources/{id}/annotations        annotates the resource just saved
 *  7. POST /api/summarize (quick, cached)         a summary asked for before
 *  8. GET  /api/search?q=…                        another cached search
 *  9. GET  /api/workspaces/{id}                   back to the workspace
 * 10. POST /api/summarize (quick, cold)           a new text each time (a summary-cache miss)
 *
 * Six reads, two writes and two summaries a visit. The steps are built here (bench/load.ts runs them);
 * the users are made through the service's API (`seedJourneyUsers`), and the searches are warmed
 * before the measurement so that no provider is asked during it.
 */
import type autocannon from 'autocannon';
import {
  ANNOTATIONS_PER_RESOURCE,
  createUser,
  createWorkspace,
  DETAIL_RESOURCES,
  fillDetailWorkspace,
} from './seed.js';

export interface JourneyUser {
  token: string;
  /** 20 resources with two annotations each; read, never written to by the journey. */
  detailWorkspaceId: string;
  /** Where the journey's resources go, round-robin (a workspace holds at most 500). */
  writeWorkspaceIds: string[];
}

export interface JourneyPlan {
  users: JourneyUser[];
  /** Queries whose provider answers are already cached (`warmJourneySearches`). */
  searchQueries: string[];
  /** The body of the cached summary (asked for once before the measurement). */
  cachedSummaryBody: string;
  /** Makes every URL and cold summary title of this load run unique. */
  runId: string;
}

const JOURNEY_WRITE_WORKSPACES = 10;

export function journeySearchPath(query: string): string {
  return `/api/search?q=${encodeURIComponent(query)}&limit=20`;
}

interface VisitContext {
  user?: JourneyUser;
  visit?: number;
  resourceId?: string;
}

/** The autocannon request list of the journey; `counter` is shared by every connection of the process. */
export function journeyRequests(
  plan: JourneyPlan,
  counter: { visits: number },
): autocannon.Request[] {
  const json = { 'content-type': 'application/json' };
  const step = (
    build: (
      context: VisitContext & { user: JourneyUser; visit: number },
    ) => Partial<autocannon.Request> | null,
  ): autocannon.Request => ({
    method: 'GET',
    path: '/',
    setupRequest: (request, context) => {
      const visit = context as VisitContext;
      if (!visit.user || visit.visit === undefined) return null as unknown as autocannon.Request;
      const built = build(visit as VisitContext & { user: JourneyUser; visit: number });
      if (!built) return null as unknown as autocannon.Request;
      return {
        ...request,
        ...built,
        headers: { authorization: `Bearer ${visit.user.token}`, ...built.headers },
      };
    },
  });
  const search = (offset: number) => (c: { visit: number }) => ({
    path: journeySearchPath(
      plan.searchQueries[(c.visit + offset) % plan.searchQueries.length] as string,
    ),
  });
  return [
    {
      method: 'GET',
      path: '/api/auth/session',
      // The first step of a visit picks its user (autocannon clears the context at each pass).
      setupRequest: (request, context) => {
        const visit = context as VisitContext;
        visit.visit = counter.visits++;
        const user = plan.users[visit.visit % plan.users.length]!;
        visit.user = user;
        return {
          ...request,
          path: '/api/auth/session',
          headers: { authorization: `Bearer ${user.token}` },
        };
      },
    },
    step(search(0)),
    step(() => ({ path: '/api/workspaces' })),
    step((c) => ({ path: `/api/workspaces/${c.user.detailWorkspaceId}` })),
    {
      ...step((c) => ({
        method: 'POST',
        path: `/api/workspaces/${c.user.writeWorkspaceIds[c.visit % c.user.writeWorkspaceIds.length]}/resources`,
        headers: json,
        body: JSON.stringify({
          title: `Journey resource ${plan.runId}-${c.visit}`,
          url: `https://bench.example.org/journey/${plan.runId}-${c.visit}`,
          notes: 'Saved from a search',
          tags: ['journey'],
          authors: ['A. Author'],
        }),
      })),
      onResponse: (status, body, context) => {
        if (status === 201)
          (context as VisitContext).resourceId = (
            JSON.parse(body) as { resource: { id: string } }
          ).resource.id;
      },
    },
    // Without the resource (its POST failed) the visit ends here and the next one starts.
    step((c) =>
      c.resourceId
        ? {
            method: 'POST',
            path: `/api/resources/${c.resourceId}/annotations`,
            headers: json,
            body: JSON.stringify({ body: 'Read section 3 again; compare with the baseline.' }),
          }
        : null,
    ),
    step(() => ({
      method: 'POST',
      path: '/api/summarize',
      headers: json,
      body: plan.cachedSummaryBody,
    })),
    step(search(1)),
    step((c) => ({ path: `/api/workspaces/${c.user.detailWorkspaceId}` })),
    step((c) => {
      const base = JSON.parse(plan.cachedSummaryBody) as { title: string };
      return {
        method: 'POST',
        path: '/api/summarize',
        headers: json,
        body: JSON.stringify({ ...base, title: `${base.title} (${plan.runId}-${c.visit})` }),
      };
    }),
  ];
}

/** `count` researchers, each with a workspace of 20 resources and 40 annotations and ten empty ones. */
export async function seedJourneyUsers(origin: string, count: number): Promise<JourneyUser[]> {
  const users: JourneyUser[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(origin, `researcher${i + 1}`);
    const detailWorkspaceId = await createWorkspace(origin, user.token, 'Long-context reading');
    await fillDetailWorkspace(
      origin,
      user.token,
      detailWorkspaceId,
      DETAIL_RESOURCES,
      ANNOTATIONS_PER_RESOURCE,
    );
    const writeWorkspaceIds: string[] = [];
    for (let w = 0; w < JOURNEY_WRITE_WORKSPACES; w++)
      writeWorkspaceIds.push(
        await createWorkspace(origin, user.token, `Saved from search ${w + 1}`),
      );
    users.push({ token: user.token, detailWorkspaceId, writeWorkspaceIds });
  }
  return users;
}
