/**
 * The web console in a real browser (Chromium from the machine's packages), against the whole
 * built system: what a person sees and does, by keyboard and by the names screen readers use.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, watchProblems } from '../support/browser';
import { startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(120_000);

describe('web console', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestSystem('browser'), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await page.close();
  });

  it('serves the console at / with a CSP that allows no inline script', async () => {
    const res = await page.goto(`${stack.baseUrl}/`);
    expect(res!.status()).toBe(200);
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res!.headers()['x-frame-options']).toBe('DENY');
    // The app's bundle ran (it replaced the noscript text).
    await page.locator('#app main').waitFor();
    const asset = page.url().replace(/\/$/, '') + (await page.locator('script[type=module]').getAttribute('src'));
    const js = await page.request.get(asset);
    expect([js.status(), js.headers()['content-type'], js.headers()['cache-control']])
      .toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
  });

  it('renders the API reference from the OpenAPI document, every script from this origin', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const res = await page.goto(`${stack.baseUrl}/docs/api/v2`);
    expect(res!.status()).toBe(200);
    // Swagger UI lists the operations by path once it has read the document.
    await page.getByText('/v2/room/{room}/notification').first().waitFor({ timeout: 30_000 });
    await expect(page.getByText('/v2/room/{room}/webhook/{id}/delivery').first().isVisible()).resolves.toBe(true);
    expect(requests.filter((u) => !u.startsWith(stack.baseUrl) && !u.startsWith('data:'))).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-reference');
    expect(problems).toEqual([]);
  });
});
