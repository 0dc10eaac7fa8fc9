/// <reference lib="dom" />
/**
 * Two actions of the Integrations pages that change what a room's integrations receive, in
 * Chromium against the whole built system: enabling a webhook the service disabled (it asks
 * first and enables once however often the buttons are clicked), and uninstalling an add-on
 * (it asks first, naming the add-on; Cancel keeps it; Confirm removes it and tells the add-on).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(240_000);

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse battery';
const SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';

describe('web console: enabling a webhook and uninstalling an add-on', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let token: string;
  let receiver: http.Server;
  let base: string;
  /** What the webhook's receiver answers. */
  let hookStatus = 500;
  const received: Array<{ method: string; path: string; body: string }> = [];

  const v2 = (method: string, path: string, body?: unknown) => v2Call(stack.baseUrl, token, method, path, body);
  const hits = (method: string, path: string) => received.filter((r) => r.method === method && r.path.startsWith(path));

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        received.push({ method: req.method ?? '', path, body: Buffer.concat(chunks).toString('utf8') });
        if (path === '/hook') return void res.writeHead(hookStatus).end();
        if (path === '/addon/descriptor') {
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
            key: 'com.example.standup', name: 'Standup Bot', description: 'Asks for the standup',
            links: { self: `${base}/addon/descriptor`, homepage: `${base}/` },
            capabilities: {
              installable: { callbackUrl: `${base}/addon/installed`, allowRoom: true, allowGlobal: false },
              hipchatApiConsumer: { scopes: ['send_notification'] },
              webhook: [{ url: `${base}/addon/standup`, event: 'room_message', pattern: '^/standup', name: 'standup' }],
            },
          }));
        }
        res.writeHead(path.startsWith('/addon/') ? 204 : 404).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.2', r));
    base = `http://127.0.0.2:${(receiver.address() as AddressInfo).port}`;
    [stack, browser] = await Promise.all([
      // Two failures a second apart disable a webhook: the console's Enable has something to do.
      startTestSystem('browser_integrations', {
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms', WEBHOOK_DISABLE_AFTER: '1s', WEBHOOK_DISABLE_MIN_FAILURES: '2',
      }),
      launchBrowser(),
    ]);
    const v1 = cli(['token', 'create', '--type', 'admin', '--label', 'integrations browser'], stack.env).stdout.trim();
    const made = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', body: new URLSearchParams({ auth_token: v1, email: EMAIL, name: 'Grace Admin', password: PASSWORD, is_group_admin: '1' }),
    });
    expect(made.status).toBe(200);
    token = cli(['token', 'create', '--type', 'personal', '--user', EMAIL, '--scopes', SCOPES], stack.env).stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await new Promise((r) => receiver?.close(r));
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    problems = watchProblems(page);
    await signInToConsole(page, stack.baseUrl, EMAIL, PASSWORD, problems);
  });
  afterEach(async () => {
    await page.close();
  });

  async function newRoom(name: string): Promise<number> {
    const made = await v2('POST', '/room', { name, privacy: 'public' });
    expect(made.status).toBe(201);
    return made.body.id;
  }

  it('enables a webhook the service disabled, after a confirmation, once however often it is clicked', async () => {
    const room = await newRoom('Pager');
    const hook = await v2('POST', `/room/${room}/webhook`, { url: `${base}/hook`, event: 'room_message', name: 'Pager duty' });
    expect(hook.status).toBe(201);
    const self = `/room/${room}/webhook/${hook.body.id}`;
    // Messages until the failures disable it (each fails, and its retry too).
    let n = 0;
    await eventually(async () => {
      expect((await v2('POST', `/room/${room}/message`, { message: `page ${n++}` })).status).toBe(201);
      expect((await v2('GET', self)).body.enabled).toBe(false);
    }, 60_000);

    await page.goto(`${stack.baseUrl}/#/rooms/${room}/integrations`);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByRole('row', { name: /Pager duty/ }).getByText(/^Disabled/).waitFor();
    await page.getByRole('link', { name: 'Pager duty' }).click();
    await page.getByRole('heading', { name: 'Deliveries of Pager duty' }).waitFor();

    // Cancel leaves it disabled.
    await page.getByRole('button', { name: 'Enable' }).click();
    const question = page.getByRole('dialog', { name: 'Enable Pager duty again?' });
    await question.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect((await v2('GET', self)).body.enabled).toBe(false);

    // A double click on Enable opens one question; a double click on Confirm enables once.
    hookStatus = 204;
    await page.getByRole('button', { name: 'Enable' }).dblclick();
    await question.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await question.getByRole('button', { name: 'Confirm' }).dblclick();
    await page.getByText('Webhook enabled.').waitFor();
    await page.getByText(/^Enabled/).waitFor();
    expect(await page.getByRole('button', { name: 'Enable' }).count()).toBe(0);
    const enabledLines = await v2('GET', `/audit?action=webhook.enabled&room=${room}`);
    expect(enabledLines.status).toBe(200);
    expect(enabledLines.body.items).toHaveLength(1);

    // It receives again.
    expect((await v2('POST', `/room/${room}/message`, { message: 'back on duty' })).status).toBe(201);
    await eventually(() => expect(hits('POST', '/hook').some((h) => h.body.includes('back on duty'))).toBe(true), 15_000);
    expect(problems).toEqual([]);
  });

  it('uninstalls an add-on only once a confirmation naming it is given; Cancel keeps it', async () => {
    const room = await newRoom('Standups');
    await page.goto(`${stack.baseUrl}/#/rooms/${room}/integrations`);
    await page.getByRole('heading', { name: 'Add-ons' }).waitFor();
    await page.getByLabel('Descriptor URL').fill(`${base}/addon/descriptor`);
    await page.getByRole('button', { name: 'Install add-on' }).click();
    const listed = page.getByRole('listitem').filter({ hasText: 'Standup Bot' });
    await listed.waitFor();
    const install = hits('POST', '/addon/installed');
    expect(install).toHaveLength(1);
    const { oauthId, roomId } = JSON.parse(install[0].body) as { oauthId: string; roomId: number };
    expect(roomId).toBe(room);

    const uninstall = listed.getByRole('button', { name: 'Uninstall' });
    await uninstall.click();
    const question = page.getByRole('dialog', { name: 'Uninstall add-on Standup Bot?' });
    await question.waitFor();
    await question.getByText('Its webhooks and tokens are removed, and the add-on is told.').waitFor();
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    // Focus returns to the button that opened the dialog.
    await eventually(async () => expect(await uninstall.evaluate((b) => b === document.activeElement)).toBe(true));
    expect((await v2('GET', '/addons')).body.items.filter((a: { room_id: number }) => a.room_id === room)).toHaveLength(1);

    await uninstall.click();
    await question.getByRole('button', { name: 'Confirm' }).dblclick();
    await page.getByText('No add-ons installed in this room.').waitFor();
    await eventually(() => expect(hits('DELETE', `/addon/installed/${oauthId}`)).toHaveLength(1), 10_000);
    expect((await v2('GET', '/addons')).body.items.filter((a: { room_id: number }) => a.room_id === room)).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
