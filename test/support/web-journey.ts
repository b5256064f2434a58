/**
 * The set-up most journeys in test/web/ share, written once: the app served (startWebServer), the
 * run's Chromium, one user signed up through the API in a fresh browser context, a page whose errors
 * are collected, and a workspace with resources seeded through the API. The API's replies are read
 * with the generated types (test/support/api-types.ts), never with reply types of the test's own.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiSchema } from './api-types.js';
import {
  launchChromium,
  newContext,
  newCredentials,
  signUpThroughApi,
  startWebServer,
  type Credentials,
  type WebServer,
} from './web-browser.js';

export interface Journey {
  server: WebServer;
  browser: Browser;
  /** The signed-up user's browser profile; its `request` sends their cookies. */
  context: BrowserContext;
  page: Page;
  credentials: Credentials;
  /** Every uncaught error of `page`: a journey ends with none (`close` says which there were). */
  pageErrors: string[];
  /** Closes the context, then the browser connection and the server; fails on any page error. */
  close(): Promise<void>;
}

export interface JourneyOptions {
  /** The e-mail address's prefix (newCredentials). */
  prefix: string;
  /** What startWebServer takes: fixture routes for the search providers, environment. */
  server?: Parameters<typeof startWebServer>[0];
  /** Browser permissions granted on the app's origin, e.g. the clipboard's. */
  permissions?: string[];
}

/**
 * Keeps in the page what it last gave the clipboard (`writeText`, or the text and HTML of `write`),
 * then hands it on to the clipboard as before. The run's one Chromium has one clipboard, which the
 * files running side by side share: reading it back, a journey could read another file's copy. A
 * journey reads what its own page copied with `copied(page)`.
 */
const RECORD_CLIPBOARD = `(() => {
  const clipboard = navigator.clipboard;
  if (!clipboard) return;
  const copied = { text: '', html: '' };
  Object.defineProperty(window, '__copied', { value: copied });
  const part = async (item, type) => (item && item.types.includes(type) ? (await item.getType(type)).text() : '');
  const writeText = clipboard.writeText.bind(clipboard);
  const write = clipboard.write.bind(clipboard);
  clipboard.writeText = async (text) => {
    Object.assign(copied, { text: String(text), html: '' });
    return writeText(text);
  };
  clipboard.write = async (items) => {
    Object.assign(copied, { text: await part(items[0], 'text/plain'), html: await part(items[0], 'text/html') });
    return write(items);
  };
})()`;

/** Has every page of `context` keep what it copies (see RECORD_CLIPBOARD). */
export async function recordClipboard(context: BrowserContext): Promise<void> {
  await context.addInitScript(RECORD_CLIPBOARD);
}

/** The text and HTML that `page` last copied (its context records them: recordClipboard). */
export async function copied(page: Page): Promise<{ text: string; html: string }> {
  return page.evaluate<{ text: string; html: string }>(
    '({ text: window.__copied?.text ?? "", html: window.__copied?.html ?? "" })',
  );
}

/** A server, Chromium and one user signed in on a page: a journey's `beforeAll`. */
export async function openJourney(options: JourneyOptions): Promise<Journey> {
  const [server, browser] = await Promise.all([startWebServer(options.server), launchChromium()]);
  const context = await newContext(browser, server.base);
  if (options.permissions)
    await context.grantPermissions(options.permissions, { origin: server.base });
  if (options.permissions?.includes('clipboard-write')) await recordClipboard(context);
  const credentials = newCredentials(options.prefix);
  await signUpThroughApi(context, server.base, credentials);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    server,
    browser,
    context,
    page,
    credentials,
    pageErrors,
    async close() {
      await context.close();
      await browser.close();
      await server.close();
      if (pageErrors.length) throw new Error(`errors in the page: ${pageErrors.join('; ')}`);
    },
  };
}

type WorkspaceInput = ApiSchema<'WorkspaceCreateInput'>;
type ResourceInput = ApiSchema<'ResourceCreateInput'>;

/** POSTs as the context's user (with the Origin the cookie check wants); the body of a 201. */
async function created<Reply>(
  context: BrowserContext,
  base: string,
  path: string,
  data: object,
): Promise<Reply> {
  const response = await context.request.post(path, { headers: { origin: base }, data });
  if (response.status() !== 201)
    throw new Error(`POST ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as Reply;
}

/** Makes a workspace through the API as the context's user: its id. */
export async function createWorkspaceThroughApi(
  context: BrowserContext,
  base: string,
  input: WorkspaceInput,
): Promise<string> {
  return (await created<ApiSchema<'Workspace'>>(context, base, '/api/workspaces', input)).id;
}

/** Adds resources to a workspace through the API, one after the other: their ids, in order. */
export async function addResourcesThroughApi(
  context: BrowserContext,
  base: string,
  workspaceId: string,
  resources: ResourceInput[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const resource of resources)
    ids.push(
      (
        await created<ApiSchema<'Resource'>>(
          context,
          base,
          `/api/workspaces/${workspaceId}/resources`,
          resource,
        )
      ).id,
    );
  return ids;
}
