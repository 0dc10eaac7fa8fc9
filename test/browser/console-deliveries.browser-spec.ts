/// <reference lib="dom" />
/**
 * Deliveries at a glance, in Chromium against the whole built system: a webhook to a local
 * receiver that fails some deliveries; its trend on the Integrations page; its charts (an image
 * named "Deliveries per hour" and one named "Latency", each with its data table); a failed
 * delivery's own page (the request as sent, masked; what came back); Redeliver; and Recover,
 * which asks first, naming how many, and acts once however often Confirm is clicked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(240_000);

const EMAIL = 'linus@example.com';
const PASSWORD = 'correct horse battery';
/** What the receiver answers a delivery it refuses, so the page can be seen to show it. */
const REFUSAL = '{"error":"the receiver is down for maintenance"}';

describe('web console: deliveries at a glance', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let admin: string;
  let receiver: http.Server;
  let receiverUrl: string;
  /** While true, a delivery whose body says "please fail" is answered 503 with REFUSAL. */
  let refusing = true;
  const received: Array<{ id: string | undefined; url: string; signature: string | undefined; body: string }> = [];

  const v1 = async (method: string, params: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: new URLSearchParams({ auth_token: admin, ...params }) });
    return { status: res.status, body: await res.json() as any };
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ id: req.headers['webhook-id'] as string | undefined, url: req.url ?? '', signature: req.headers['webhook-signature'] as string | undefined, body });
        if (refusing && body.includes('please fail')) res.writeHead(503, { 'Content-Type': 'application/json', 'X-Receiver': 'maintenance' }).end(REFUSAL);
        else res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.2', r));
    // The query is a credential of the receiver's: the console shows it masked.
    receiverUrl = `http://127.0.0.2:${(receiver.address() as AddressInfo).port}/hook?key=receiver-query-secret`;
    [stack, browser] = await Promise.all([
      startTestSystem('browser_deliveries', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms' }),
      launchBrowser(),
    ]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'deliveries browser'], stack.env).stdout.trim();
    expect((await v1('users/create', { email: EMAIL, name: 'Linus Operator', password: PASSWORD, is_group_admin: '1' })).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await new Promise((r) => receiver?.close(r));
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await page.close();
  });

  function signIn(): Promise<void> {
    return signInToConsole(page, stack.baseUrl, EMAIL, PASSWORD, problems);
  }

  /** The page's POSTs to paths ending so: what the buttons actually asked of the API. */
  function posts(suffix: RegExp): Request[] {
    const seen: Request[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && suffix.test(new URL(r.url()).pathname)) seen.push(r); });
    return seen;
  }

  /** Whether the page's content fits a 375 px wide screen (nothing scrolls sideways but a wide table, inside its own box). */
  async function fitsNarrow(): Promise<void> {
    await page.setViewportSize({ width: 375, height: 800 });
    // The charts are drawn again at their new width when their box has been resized.
    await eventually(async () => {
      const [scrolled, shown] = await page.locator('main').evaluate((m) => [m.scrollWidth, m.clientWidth]);
      expect(scrolled).toBeLessThanOrEqual(shown);
    });
    await page.setViewportSize({ width: 1200, height: 900 });
  }

  /** The cells of a table's row named by its header (`Total`), as text. */
  const cellsOf = async (table: ReturnType<Page['getByRole']>, header: string | RegExp) =>
    table.getByRole('row', { name: header }).getByRole('cell').allTextContents();

  it('charts a webhook\'s deliveries, opens a failed one, redelivers it and recovers the rest once confirmed', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Glance', owner_user_id: '1' });
    expect(room.status).toBe(200);
    const roomId = room.body.room.room_id as number;
    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}/integrations`);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByLabel('Event').selectOption('room_notification');
    await page.getByLabel('Authentication').selectOption('jwt');
    await page.getByLabel('Name', { exact: true }).first().fill('Ops receiver');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook added.').waitFor();

    // Three delivered at once; three refused at their attempt and at their one retry (300 ms later): failed.
    for (const n of [1, 2, 3]) expect((await v1('rooms/message', { room_id: String(roomId), from: 'CI', message: `all good ${n}` })).status).toBe(200);
    for (const n of [1, 2, 3]) expect((await v1('rooms/message', { room_id: String(roomId), from: 'CI', message: `please fail ${n}` })).status).toBe(200);
    const failedIds = () => page.evaluate(async (id) => {
      const hooks = await fetch(`/v2/room/${id}/webhook`).then((r) => r.json());
      const list = await fetch(`/v2/room/${id}/webhook/${hooks.items[0].id}/delivery?status=failed`).then((r) => r.json());
      return list.items.map((d: { id: string }) => d.id) as string[];
    }, roomId);
    await eventually(async () => expect(await failedIds()).toHaveLength(3), 60_000);

    // The Integrations page's trend beside the webhook, named by its totals.
    const trend = page.getByRole('row', { name: /Ops receiver/ }).getByRole('img', { name: /^Deliveries in the last 24 hours/ });
    await eventually(async () => {
      await page.reload();
      await trend.waitFor({ timeout: 2_000 });
      expect(await trend.getAttribute('aria-label')).toBe('Deliveries in the last 24 hours: 3 delivered, 3 failed');
    }, 30_000);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await fitsNarrow();

    // The webhook's charts, each with its data table.
    await page.getByRole('link', { name: 'Ops receiver' }).click();
    await page.getByRole('heading', { name: 'Deliveries of Ops receiver' }).waitFor();
    const chart = page.getByRole('img', { name: 'Deliveries per hour' });
    await chart.waitFor();
    const table = page.getByRole('table', { name: /^Deliveries per hour, last 24 hours/ });
    // Delivered, retried, failed, pending.
    expect(await cellsOf(table, /^Total/)).toEqual(['3', '0', '3', '0']);
    expect(await table.getByRole('rowheader').count()).toBeGreaterThanOrEqual(2);
    await page.getByRole('img', { name: 'Latency' }).waitFor();
    const latency = page.getByRole('table', { name: /^Latency per hour/ });
    expect((await cellsOf(latency, /^All/)).every((c) => /^\d+ ms$/.test(c))).toBe(true);
    // Drawn: uPlot's canvas, sized to the chart's box.
    expect(await chart.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width > 100 && c.height > 100)).toBe(true);
    // The period is a choice made by keyboard: the arrow moves from the last 24 hours to the last 7 days.
    await page.getByRole('radio', { name: 'Last 24 hours' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Last 7 days' }).isChecked()).toBe(true);
    const week = page.getByRole('table', { name: /^Deliveries per hour, last 7 days/ });
    await week.waitFor();
    expect(await cellsOf(week, /^Total/)).toEqual(['3', '0', '3', '0']);
    await page.getByRole('radio', { name: 'Last 24 hours' }).check();
    await table.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'webhook-chart');
    await fitsNarrow();

    // A failed delivery's own page: what was sent (its query masked, its signature cut short) and what came back.
    await page.getByLabel('Status').selectOption('failed');
    await eventually(async () => expect(await page.locator('td.delivery-failed').count()).toBe(3));
    const link = page.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).first();
    const id = (await link.textContent())!;
    await link.click();
    await page.getByRole('heading', { name: `Delivery ${id}` }).waitFor();
    await page.getByRole('heading', { name: 'Attempt 1: HTTP 503' }).waitFor();
    await page.getByRole('heading', { name: 'Attempt 2: HTTP 503' }).waitFor();
    expect(await page.getByRole('figure', { name: 'Response body of attempt 1 (excerpt)' }).textContent()).toContain('"error": "the receiver is down for maintenance"');
    await page.getByRole('cell', { name: 'maintenance', exact: true }).first().waitFor();
    expect(await page.getByRole('figure', { name: 'Request body' }).textContent()).toMatch(/\n {2}"event": "room_notification"/);
    await page.getByText(/POST http:\/\/127\.0\.0\.2:\d+\/hook\?key=\*\*\*/).waitFor();
    const sent = received.filter((r) => r.id === id);
    expect(sent).toHaveLength(2);
    const content = await page.content();
    expect(content).not.toContain('receiver-query-secret');
    for (const r of sent) {
      expect(content).not.toContain(new URL(r.url, 'http://x').searchParams.get('signed_request') ?? 'no JWT?');
      expect(content).not.toContain(r.signature ?? 'no signature?');
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'delivery');
    await fitsNarrow();

    // Redeliver, the receiver back: one more attempt however often it is clicked, its outcome shown.
    refusing = false;
    const redelivers = posts(/\/redeliver$/);
    await page.getByRole('button', { name: 'Redeliver' }).dblclick();
    await page.getByRole('heading', { name: 'Attempt 3: HTTP 200' }).waitFor({ timeout: 30_000 });
    await page.getByRole('status').filter({ hasText: /^Attempt 3: HTTP 200 in \d+ ms; the delivery is delivered\.$/ }).waitFor();
    expect(redelivers).toHaveLength(1);
    expect(received.filter((r) => r.id === id)).toHaveLength(3);

    // Recover the two still failed: asked first, naming how many; Cancel does nothing.
    await page.getByRole('link', { name: 'Back to the deliveries of Ops receiver' }).click();
    await page.getByRole('heading', { name: 'Deliveries of Ops receiver' }).waitFor();
    const recovers = posts(/\/recover$/);
    const recover = page.getByRole('button', { name: 'Recover failed since' });
    await recover.dblclick();
    const question = page.getByRole('dialog', { name: /^Recover 2 failed deliveries since .+\?$/ });
    await question.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    await eventually(async () => expect(await recover.isEnabled()).toBe(true));
    // Focus is back on the button that asked.
    await eventually(async () => expect(await recover.evaluate((b) => b === document.activeElement)).toBe(true));
    expect(recovers).toHaveLength(0);
    expect(await failedIds()).toHaveLength(2);

    // Confirm, clicked twice: recovered once, and both delivered now. The two clicks are the
    // button's own (a mouse's second click would land on the page behind the closed dialog).
    await recover.click();
    await question.getByRole('button', { name: 'Confirm' }).evaluate((b: HTMLButtonElement) => { b.click(); b.click(); });
    await page.getByRole('status').filter({ hasText: '2 failed deliveries queued again.' }).waitFor();
    expect(recovers).toHaveLength(1);
    await eventually(async () => expect(await failedIds()).toHaveLength(0), 30_000);
    await eventually(async () => {
      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Status').selectOption('delivered');
      expect(await page.locator('td.delivery-delivered').count()).toBe(6);
    }, 30_000);

    // Deleting the webhook asks too.
    await page.getByRole('link', { name: 'Back to the integrations' }).click();
    const row = page.getByRole('row', { name: /Ops receiver/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete webhook Ops receiver?' });
    await deletion.getByRole('button', { name: 'Cancel' }).click();
    await deletion.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await deletion.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No webhooks in this room.').waitFor();
    expect(problems).toEqual([]);
  });
});
