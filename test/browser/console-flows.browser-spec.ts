/// <reference lib="dom" />
/**
 * The web console as a person uses it, in Chromium against the whole built system: sign in,
 * rooms, live messages, the composer, API tokens, webhooks and their deliveries, and what a
 * hostile message or card cannot do.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(180_000);

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery';

describe('web console, signed in', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let admin: string;
  let receiver: http.Server;
  let receiverUrl: string;
  let receiverStatus = 500;
  const received: Array<{ id: string | undefined; timestamp?: string; signature?: string; body: string }> = [];

  const v1 = async (method: string, params: Record<string, string>, verb: 'GET' | 'POST' = 'POST') => {
    const query = new URLSearchParams({ auth_token: admin, ...params });
    const res = verb === 'GET'
      ? await fetch(`${stack.baseUrl}/v1/${method}?${query}`)
      : await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: query });
    return { status: res.status, body: await res.json() as any };
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          id: req.headers['webhook-id'] as string | undefined,
          timestamp: req.headers['webhook-timestamp'] as string | undefined,
          signature: req.headers['webhook-signature'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(receiverStatus).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.2', r));
    receiverUrl = `http://127.0.0.2:${(receiver.address() as AddressInfo).port}/hook`;
    [stack, browser] = await Promise.all([
      startTestSystem('browser_flows', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms' }),
      launchBrowser(),
    ]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'browser'], stack.env).stdout.trim();
    const user = await v1('users/create', { email: EMAIL, name: 'Ada Lovelace', mention_name: 'ada', password: PASSWORD, is_group_admin: '1' });
    expect(user.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await new Promise((r) => receiver?.close(r));
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await page.close();
  });

  function signIn(): Promise<void> {
    return signInToConsole(page, stack.baseUrl, EMAIL, PASSWORD, problems);
  }

  it('signs in by keyboard alone, refuses a wrong password, and signs out', async () => {
    await page.goto(`${stack.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type('wrong password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/e-?mail address or password/i);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    // The session is an HttpOnly cookie: nothing the page's script can read.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
  });

  it('creates a room, shows a message posted through the API live, and sends one from the composer', async () => {
    await signIn();
    await page.getByLabel('Room name').fill('Release Train');
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.getByRole('heading', { name: 'Release Train' }).waitFor();
    await page.getByText('Live: new messages appear').waitFor();
    // With the room open, its person is a participant (room_enter), as the API sees it too.
    const participants = () => page.evaluate(async () => {
      const rooms = await fetch('/v2/room?expand=items').then((r) => r.json());
      const id = rooms.items.find((r: { name: string }) => r.name === 'Release Train').id;
      return (await fetch(`/v2/room/${id}/participant`).then((r) => r.json())).items.map((u: { name: string }) => u.name);
    });
    await eventually(async () => expect(await participants()).toEqual(['Ada Lovelace']));
    await page.getByRole('complementary').getByText('Ada Lovelace').waitFor();

    const posted = Date.now();
    expect((await v1('rooms/message', { room_id: 'Release Train', from: 'CI', message: 'Build <b>42</b> passed @ada', message_format: 'html', color: 'green' })).status).toBe(200);
    await page.locator('.messages .notification.green', { hasText: 'Build 42 passed' }).waitFor({ timeout: 5_000 });
    expect(Date.now() - posted).toBeLessThan(1_000);

    await page.getByLabel('Message').fill('Shipping it @ada');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.messages .message', { hasText: 'Shipping it' }).waitFor();
    await expect(page.locator('.messages mark.mention.me').count()).resolves.toBeGreaterThan(0);
    const history = await v1('rooms/history', { room_id: 'Release Train', date: 'recent' }, 'GET');
    expect(history.body.messages.map((m: any) => m.message)).toEqual(expect.arrayContaining(['Shipping it @ada']));

    await page.getByRole('button', { name: 'Edit topic' }).click();
    await page.getByLabel('Topic').fill('Frozen until Monday');
    await page.getByRole('button', { name: 'Save topic' }).click();
    await page.getByText('Topic: Frozen until Monday').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The room's picture is console-chat's (a room with its groups, emoticons and cards).
    await page.getByRole('link', { name: 'Rooms' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Release Train' }).waitFor();
    await page.getByText('Frozen until Monday').waitFor();
    // Closing the room (its live connection) is leaving it (room_exit).
    await eventually(async () => expect(await participants()).toEqual([]));
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('makes an API token shown once, which works at once, and revokes it', async () => {
    await signIn();
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel('Label').fill('deploy bot');
    await page.getByRole('checkbox', { name: 'view_group' }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('New token').inputValue();
    expect(token).toMatch(/^\S{20,}$/);
    const rooms = await fetch(`${stack.baseUrl}/v2/room`, { headers: { Authorization: `Bearer ${token}` } });
    expect(rooms.status).toBe(200);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-tokens');
    await page.reload();
    await page.getByRole('cell', { name: 'deploy bot' }).waitFor();
    expect(await page.content()).not.toContain(token);
    // A group admin's list also has the v1 tokens: revoke this one, by its row, once confirmed.
    const revoke = page.getByRole('row', { name: /deploy bot/ }).getByRole('button', { name: 'Revoke' });
    await revoke.click();
    const question = page.getByRole('dialog', { name: 'Revoke token "deploy bot"?' });
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    // Cancelled: the token still works, and focus is back on the button that asked.
    expect((await fetch(`${stack.baseUrl}/v2/room`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    await eventually(async () => expect(await revoke.evaluate((b) => b === document.activeElement)).toBe(true));
    await revoke.click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Token "deploy bot" revoked.' }).waitFor();
    expect((await fetch(`${stack.baseUrl}/v2/room`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(problems).toEqual([]);
  });

  it('adds a webhook, shows its failed delivery, and redelivers it once the receiver is back', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Hooks', owner_user_id: '1' });
    await page.goto(`${stack.baseUrl}/#/rooms/${room.body.room.room_id}/integrations`);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByLabel('Event').selectOption('room_notification');
    await page.getByLabel('Pattern').fill('');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook added.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'integrations');

    receiverStatus = 500;
    expect((await v1('rooms/message', { room_id: 'Hooks', from: 'CI', message: 'deploy failed' })).status).toBe(200);
    await page.getByRole('link', { name: /Webhook \d+/ }).click();
    // The list is read when its filter changes, and an outcome is recorded after the receiver
    // has answered: filter again, as a user would, until it shows the one delivery.
    const listShowsOne = (status: 'failed' | 'delivered', timeoutMs: number) => eventually(async () => {
      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Status').selectOption(status);
      expect(await page.locator(`td.delivery-${status}`).count()).toBe(1);
    }, timeoutMs);
    // One attempt and one retry 300 ms later, both answered 500.
    await listShowsOne('failed', 20_000);
    const id = received[0].id;
    receiverStatus = 200;
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await eventually(() => expect(received.filter((r) => r.id === id)).toHaveLength(3), 10_000);
    await listShowsOne('delivered', 10_000);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'deliveries');
    expect(problems).toEqual([]);
  });

  it('shows a new webhook\'s signing secret once, the one its deliveries are signed with', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Signed', owner_user_id: '1' });
    await page.goto(`${stack.baseUrl}/#/rooms/${room.body.room.room_id}/integrations`);
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByLabel('Event').selectOption('room_notification');
    await page.getByLabel('Authentication').selectOption('jwt');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Copy this signing secret now: it is not shown again').waitFor();
    const field = page.getByRole('textbox', { name: 'Signing secret' });
    const secret = await field.inputValue();
    expect(secret).toMatch(/^\S{16,}$/);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Copy signing secret' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The secret shown is the one the webhook signs with: a receiver verifies a delivery by it.
    receiverStatus = 200;
    const before = received.length;
    expect((await v1('rooms/message', { room_id: 'Signed', from: 'CI', message: 'signed delivery' })).status).toBe(200);
    await eventually(() => expect(received.slice(before).find((r) => r.body.includes('signed delivery'))).toBeDefined(), 10_000);
    const delivery = received.slice(before).find((r) => r.body.includes('signed delivery'))!;
    const mac = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`).digest('base64');
    expect(delivery.signature?.split(' ')).toContain(`v1,${mac}`);

    // Shown once: gone when the page is opened again.
    await page.reload();
    await page.getByRole('link', { name: /Webhook \d+/ }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(problems).toEqual([]);
  });

  it('opens a room\'s history at the newest message and follows new ones only from the bottom', async () => {
    await page.setViewportSize({ width: 1200, height: 420 });
    await signIn();
    const room = await v1('rooms/create', { name: 'Long history', owner_user_id: '1' });
    for (let n = 1; n <= 14; n++) expect((await v1('rooms/message', { room_id: 'Long history', from: 'CI', message: `Message ${n}` })).status).toBe(200);
    const list = page.locator('ol.messages');
    // Whether the message is wholly inside the list's visible box, as the reader sees it.
    const inView = (text: string) => page.locator('.messages .message', { hasText: new RegExp(`${text}$`) }).evaluate((li) => {
      const box = li.closest('ol')!.getBoundingClientRect();
      const r = li.getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    });
    await page.goto(`${stack.baseUrl}/#/rooms/${room.body.room.room_id}`);
    await page.getByText('Live: new messages appear').waitFor();
    await page.locator('.messages .message', { hasText: 'Message 14' }).waitFor();
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await eventually(async () => expect([await inView('Message 14'), await inView('Message 1')]).toEqual([true, false]));

    // At the bottom: a new message is followed.
    expect((await v1('rooms/message', { room_id: 'Long history', from: 'CI', message: 'Message 15' })).status).toBe(200);
    await page.locator('.messages .message', { hasText: 'Message 15' }).waitFor();
    await eventually(async () => expect(await inView('Message 15')).toBe(true));

    // Scrolled up to the oldest, by keyboard: the list is focusable, and a new message leaves it there.
    await list.focus();
    await page.keyboard.press('Home');
    await eventually(async () => expect(await inView('Message 1')).toBe(true));
    expect((await v1('rooms/message', { room_id: 'Long history', from: 'CI', message: 'Message 16' })).status).toBe(200);
    await page.getByRole('button', { name: 'New messages' }).waitFor();
    expect([await inView('Message 1'), await inView('Message 16')]).toEqual([true, false]);
    // Scrollable by keyboard, so focusable and named (axe: scrollable-region-focusable).
    expect(await page.getByRole('list', { name: 'Room history' }).getAttribute('tabindex')).toBe('0');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'New messages' }).click();
    await eventually(async () => expect(await inView('Message 16')).toBe(true));
    await eventually(async () => expect(await page.getByRole('button', { name: 'New messages' }).count()).toBe(0));
    expect(problems).toEqual([]);
  });

  it('makes one room, one token and one webhook however often their button is clicked', async () => {
    await signIn();
    // Each creation answers slowly, as over a poor network: a double click lands while it is in flight.
    const slowly = (method: string) => async (route: import('playwright-core').Route) => {
      if (route.request().method() === method) await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    };
    await page.route('**/v2/room', slowly('POST'));
    await page.route('**/v2/token', slowly('POST'));
    await page.route('**/v2/room/*/webhook', slowly('POST'));
    const count = (path: string, pick: string, value: string) => page.evaluate(async ([p, k, v]) => {
      const list = await fetch(p).then((r) => r.json());
      return list.items.filter((i: Record<string, unknown>) => i[k] === v).length;
    }, [path, pick, value]);

    await page.getByLabel('Room name').fill('Clicked twice');
    await page.getByRole('button', { name: 'Create room' }).dblclick();
    await page.getByRole('heading', { name: 'Clicked twice' }).waitFor();
    expect(await count('/v2/room?include-private=true&max-results=1000', 'name', 'Clicked twice')).toBe(1);
    const roomId = Number(/rooms\/(\d+)/.exec(page.url())![1]);

    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Label').fill('clicked twice');
    const createToken = page.getByRole('button', { name: 'Create token' });
    await createToken.dblclick();
    await page.getByLabel('New token').waitFor();
    await eventually(async () => expect(await createToken.isEnabled()).toBe(true));
    expect(await count('/v2/token?max-results=1000', 'label', 'clicked twice')).toBe(1);

    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}/integrations`);
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    const addWebhook = page.getByRole('button', { name: 'Add webhook' });
    await addWebhook.dblclick();
    await page.getByText('Webhook added.').waitFor();
    await page.getByRole('link', { name: /Webhook \d+/ }).waitFor();
    await eventually(async () => expect(await addWebhook.isEnabled()).toBe(true));
    expect(await count(`/v2/room/${roomId}/webhook`, 'url', receiverUrl)).toBe(1);
    // And the button says so while the request is in flight.
    await page.getByLabel('Webhook URL').fill(`${receiverUrl}?again`);
    await addWebhook.click();
    expect(await addWebhook.isDisabled()).toBe(true);
    await page.getByRole('link', { name: /Webhook \d+/ }).nth(1).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows a redelivered delivery\'s new outcome and the webhook\'s health without a reload', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Redelivered', owner_user_id: '1' });
    const roomId = room.body.room.room_id;
    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}/integrations`);
    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByLabel('Event').selectOption('room_notification');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook added.').waitFor();
    receiverStatus = 500;
    expect((await v1('rooms/message', { room_id: 'Redelivered', from: 'CI', message: 'to be redelivered' })).status).toBe(200);
    await page.getByRole('link', { name: /Webhook \d+/ }).click();
    // One attempt and one retry, both answered 500: the page opened afresh shows the delivery
    // failed and, once the dispatcher's health report has reached the rooms service (it comes
    // after the delivery's outcome, later still on a busy machine), the webhook's health.
    await eventually(async () => {
      await page.reload();
      await page.getByRole('heading', { name: /Deliveries of/ }).waitFor();
      await page.locator('td.delivery-failed').waitFor({ timeout: 1_000 });
      await page.getByText('(2 failures in a row)').waitFor({ timeout: 1_000 });
    }, 60_000);
    const row = page.getByRole('row', { name: /room_notification/ });
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('2');

    receiverStatus = 200;
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await row.locator('td.delivery-delivered').waitFor({ timeout: 60_000 });
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('3');
    expect(await row.getByRole('cell').nth(4).textContent()).toMatch(/^200 in \d+ ms$/);
    await page.getByText(/^Enabled, last delivered/).waitFor({ timeout: 60_000 });
    expect(await page.getByText(/failures? in a row/).count()).toBe(0);
    await eventually(async () => expect(await row.getByRole('button', { name: 'Redeliver' }).isEnabled()).toBe(true));
    expect(problems).toEqual([]);
  });

  it('runs nothing from a message or card carrying script, onerror= or a javascript: link', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Hostile', owner_user_id: '1' });
    const roomId = room.body.room.room_id;
    expect((await v1('rooms/message', {
      room_id: 'Hostile', from: 'x', message_format: 'html',
      message: '<img src=x onerror="window.__xss=1">hi<script>window.__xss=2</script><a href="javascript:window.__xss=3">click me</a>',
    })).status).toBe(200);
    const token = JSON.parse(await page.evaluate(async () => {
      const s = await fetch('/v2/session').then((r) => r.json());
      const made = await fetch('/v2/token', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrf_token }, body: JSON.stringify({ label: 'x', scopes: ['send_notification'] }) });
      return JSON.stringify(await made.json());
    })).token as string;
    const card = await fetch(`${stack.baseUrl}/v2/room/${roomId}/notification`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'card', card: { style: 'link', id: 'c1', title: 'Evil <img src=x onerror=window.__xss=4>', url: 'https://ci.example.com/42', activity: { html: '<img src=x onerror=window.__xss=5>' }, description: { value: '<img src=x onerror=window.__xss=6>', format: 'html' } } }),
    });
    expect([card.status, card.status === 204 ? '' : await card.text()]).toEqual([204, '']);
    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}`);
    await page.locator('.messages .message', { hasText: 'click me' }).waitFor();
    await page.locator('.messages .card').waitFor();
    const link = page.getByText('click me');
    if (await link.count()) await link.click().catch(() => undefined);
    await page.getByText(/Evil/).click().catch(() => undefined);
    // Every image of the room has tried to load (and the broken ones failed), so any onerror= would have run.
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.messages img')).every((i) => (i as HTMLImageElement).complete));
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator('.messages script, .messages [onerror], .messages a[href^="javascript:" i]').count()).toBe(0);
    // The sanitizer keeps <img src=x> as a plain image: it fails to load, and that is all.
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
  });
});
