/**
 * Alerts in the web app (issue 24), in Chromium against the real service with the providers answered
 * from recorded fixtures: a signed-in user searches, follows the search (weekly), finds it on the
 * Alerts page, runs it now and watches the run finish there; the digest it mails (read from the
 * outbox) carries an unsubscribe link, which, opened signed out, asks first (opening it changes
 * nothing), stops the e-mails on the button and says so; the alert is then gone from the Alerts page
 * and the link says the e-mails have stopped. axe on the Alerts page (empty, with an alert, with its
 * runs open) and the unsubscribe page; nothing scrolls sideways at 360 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyProviderRoutes } from '../support/fixture-server.js';
import { linkIn, mailWrittenBy } from '../support/outbox.js';
import {
  auditPage,
  launchChromium,
  newContext,
  newCredentials,
  pageWidths,
  signUpThroughApi,
  startWebServer,
  webSkipReason,
  JOURNEY_TIMEOUT_MS,
  type WebServer,
} from '../support/web-browser.js';

const QUERY = 'Augmenting large language models with chemistry tools';
/** A run goes through the job queue and its digest through the mailer: both after the reply. */
const RUN_TIMEOUT_MS = 30_000;

describe.skipIf(webSkipReason)('alerts (Chromium)', { timeout: JOURNEY_TIMEOUT_MS }, () => {
  let server: WebServer;
  let browser: Browser;
  let userContext: BrowserContext;
  let visitorContext: BrowserContext;
  let user: Page;
  let visitor: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Alert jobs are off in tests unless asked for; a short tick makes the queue look for work often
    // (Run now also wakes it at once).
    [server, browser] = await Promise.all([
      startWebServer({
        routes: everyProviderRoutes(),
        env: { ALERTS_ENABLED: 'true', ALERTS_TICK_SECONDS: '2' },
      }),
      launchChromium(),
    ]);
    userContext = await newContext(browser, server.base);
    visitorContext = await newContext(browser, server.base);
    await signUpThroughApi(userContext, server.base, newCredentials('alerts'));
    user = await userContext.newPage();
    visitor = await visitorContext.newPage();
    for (const page of [user, visitor])
      page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 240_000);
  afterAll(async () => {
    await userContext?.close();
    await visitorContext?.close();
    await browser?.close();
    await server?.close();
    expect(pageErrors).toEqual([]);
  });

  const main = (page: Page) => page.locator('main');
  const alertCard = () => user.getByRole('article', { name: QUERY });
  const noSidewaysScroll = async (page: Page, what: string) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const { scrollWidth, clientWidth } = await pageWidths(page);
    expect(scrollWidth, what).toBeLessThanOrEqual(clientWidth);
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  let unsubscribePath: string;
  let savePath: string;

  it('follows a search from the search page and lists it on the Alerts page, which says what alerts are when there are none', async () => {
    await user.goto('/alerts');
    await user.getByText('No alerts yet').waitFor();
    expect(await main(user).textContent()).toContain('Follow this search');
    expect(await auditPage(user, 'alerts-empty')).toEqual({});

    await user.goto(`/dashboard?q=${encodeURIComponent(QUERY)}&yearFrom=2020`);
    await user.getByRole('region', { name: 'Results' }).getByRole('article').first().waitFor();
    await user.getByRole('button', { name: 'Follow this search' }).click();
    const form = user.getByRole('form', { name: 'Follow this search' });
    await form.getByLabel('Daily').check();
    await form.getByRole('button', { name: 'Follow' }).click();
    await expect
      .poll(() => user.getByRole('status').filter({ hasText: 'Following' }).textContent())
      .toContain(`Following “${QUERY}”: new results come by e-mail daily.`);
    // The form closed under the focus: it is on the way to the alert.
    await expect
      .poll(() =>
        user
          .getByRole('link', { name: 'See your alerts' })
          .evaluate(
            (element) =>
              element ===
              (element.ownerDocument as unknown as { activeElement: unknown }).activeElement,
          ),
      )
      .toBe(true);
    await user.getByRole('link', { name: 'See your alerts' }).click();
    await user.waitForURL('**/alerts');

    const card = alertCard();
    await card.waitFor();
    const facts = await card.locator('dl').textContent();
    expect(facts).toContain('All sources');
    expect(facts).toContain('Published in or after 2020');
    expect(facts).toContain('Daily');
    expect(facts).toContain('Not run yet');
    // In the header navigation, marked as the page shown.
    expect(
      await user
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Alerts' })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await auditPage(user, 'alerts-list')).toEqual({});
    await noSidewaysScroll(user, 'the Alerts page');
  });

  it('runs the alert now, following the run until it finishes, and mails its digest with an unsubscribe link', async () => {
    const card = alertCard();
    const mail = await mailWrittenBy(
      server.t.dataDir,
      async () => {
        await card.getByRole('button', { name: 'Run now' }).click();
        // The run is followed as it goes, then said once over (its e-mail too).
        await card
          .getByText(/^Run finished: \d+ new results? of \d+ found\. E-mail sent\.$/)
          .waitFor({ timeout: RUN_TIMEOUT_MS });
      },
      RUN_TIMEOUT_MS,
    );
    expect(mail).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/i);
    unsubscribePath = new URL(
      linkIn(mail, /http:\/\/127\.0\.0\.1:\d+\/alerts\/unsubscribe\/[A-Za-z0-9_-]+/),
    ).pathname;
    const saveLink = new URL(
      linkIn(mail, /http:\/\/127\.0\.0\.1:\d+\/dashboard\?[^\s"<>]*action=save/),
    );
    savePath = `${saveLink.pathname}${saveLink.search}`;

    // The list is read again: the last run is shown with what it found, and the next run is scheduled.
    await expect
      .poll(() => card.locator('dl').textContent())
      .toMatch(/Last run.*new results? of \d+ found\. E-mail sent\./);
    expect(await card.locator('dl').textContent()).not.toContain('Not scheduled');
    await card.getByRole('button', { name: 'Show runs' }).click();
    const runs = card.getByRole('region', { name: `Runs of the alert for ${QUERY}` });
    await expect.poll(() => runs.getByRole('listitem').count()).toBe(1);
    expect(await runs.textContent()).toContain('(Run now)');
    expect(await auditPage(user, 'alerts-runs')).toEqual({});
    await noSidewaysScroll(user, 'the Alerts page with its runs open');
  });

  it('opens the Save dialog from a digest’s Save link, once', async () => {
    await user.goto(savePath);
    await user.getByRole('dialog', { name: 'Save to a workspace' }).waitFor();
    await user.waitForURL((url) => !url.searchParams.has('action'));
    await user.keyboard.press('Escape');
    await user.reload();
    await user.getByRole('region', { name: 'Results' }).getByRole('article').first().waitFor();
    expect(await user.getByRole('dialog').count()).toBe(0);
    await user.goto('/alerts');
  });

  it('asks before it unsubscribes (signed out), stops the e-mails on the button, and the alert is gone', async () => {
    await visitor.goto(unsubscribePath);
    await visitor.getByRole('heading', { name: `Stop e-mails for “${QUERY}”?` }).waitFor();
    expect(await auditPage(visitor, 'alerts-unsubscribe')).toEqual({});
    await noSidewaysScroll(visitor, 'the unsubscribe page');
    // Opening the link changed nothing.
    await user.reload();
    await alertCard().waitFor();

    await visitor.getByRole('button', { name: 'Stop these e-mails' }).click();
    await visitor.getByText('Done: no more e-mails').waitFor();
    expect(await main(visitor).textContent()).toContain(`You get no more e-mails for “${QUERY}”.`);
    expect(await auditPage(visitor, 'alerts-unsubscribed')).toEqual({});

    await user.reload();
    await user.getByText('No alerts yet').waitFor();
    expect(await alertCard().count()).toBe(0);
    // The link, used again, says so rather than failing.
    await visitor.reload();
    await visitor.getByText('These e-mails have already stopped').waitFor();
  });
});
