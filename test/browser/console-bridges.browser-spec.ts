/// <reference lib="dom" />
/**
 * The Bridges section of a room's Integrations page, in Chromium against the whole built
 * system: a Slack bridge added against a local receiver that answers as Slack does, listed
 * with its platform, masked URL, events, inbound and health; its inbound URL shown once;
 * its deliveries a link away; removed after a confirmation.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { PlatformReceivers } from '../support/platform-receivers';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(180_000);

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse battery';

describe('web console: bridges', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let admin: string;
  let receivers: PlatformReceivers;

  const v1 = async (method: string, params: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: new URLSearchParams({ auth_token: admin, ...params }) });
    return { status: res.status, body: await res.json() as any };
  };

  beforeAll(async () => {
    receivers = await new PlatformReceivers().start();
    // The receiver is on loopback, which the SSRF guard refuses unless allowed.
    [stack, browser] = await Promise.all([startTestSystem('browser_bridges', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' }), launchBrowser()]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'bridges browser'], stack.env).stdout.trim();
    expect((await v1('users/create', { email: EMAIL, name: 'Grace Hopper', password: PASSWORD, is_group_admin: '1' })).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await receivers?.stop();
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

  it('adds a Slack bridge with inbound, shows its inbound URL once, lists it masked, opens its deliveries, and removes it after a confirmation', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Release Bridge', owner_user_id: '1' });
    expect(room.status).toBe(200);
    const roomId = room.body.room.room_id as number;
    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}/integrations`);
    await page.getByRole('heading', { name: 'Bridges' }).waitFor();
    await page.getByText('No bridges in this room.').waitFor();

    const slackUrl = receivers.urlOf('slack', 'T0001/B0001/release-secret');
    const bridges = page.getByRole('region', { name: 'Bridges' });
    await bridges.getByLabel('Platform').selectOption('slack');
    await bridges.getByLabel('Bridge URL').fill(slackUrl);
    // The four default events are checked; one more is added.
    for (const event of ['room_message', 'room_notification', 'room_topic_change', 'room_file_upload']) {
      expect(await bridges.getByRole('checkbox', { name: event, exact: true }).isChecked()).toBe(true);
    }
    await bridges.getByRole('checkbox', { name: 'room_enter', exact: true }).check();
    await bridges.getByLabel('Name').fill('Release channel');
    await bridges.getByRole('checkbox', { name: /Inbound/ }).check();
    await bridges.getByLabel('Verification token (optional)').fill('slack-verification-token');
    await bridges.getByRole('button', { name: 'Add bridge' }).click();
    await bridges.getByRole('status').filter({ hasText: 'Slack bridge added.' }).waitFor();

    // The inbound URL, shown this once, focused and with its Copy button.
    const inbound = page.getByLabel('Inbound URL');
    await inbound.waitFor();
    expect(await inbound.inputValue()).toMatch(new RegExp(`^${stack.baseUrl.replace(/\./g, '\\.')}/v2/bridge/inbound/[A-Za-z0-9_-]{43}$`));
    await page.getByText('it is not shown again').waitFor();
    await page.getByRole('button', { name: 'Copy inbound URL' }).waitFor();

    // Listed: its name, platform, masked URL (the path past its first segment is the credential), events, inbound, health, trend.
    const row = bridges.getByRole('row', { name: /Release channel/ });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('Slack');
    expect(text).toContain(`${receivers.baseUrl}/slack/***`);
    expect(text).not.toContain('release-secret');
    expect(text).toContain('room_topic_change, room_enter, room_file_upload, room_message, room_notification');
    expect(text).toContain('On (token)');
    expect(text).toContain('Enabled');
    await row.getByRole('img', { name: 'Deliveries in the last 24 hours: 0 delivered, 0 failed' }).waitFor();
    expect(await page.content()).not.toContain('slack-verification-token');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bridges');

    // A message goes out through the bridge: its delivery is in the bridge's log, a link away.
    expect((await v1('rooms/message', { room_id: String(roomId), from: 'CI', message: 'Release 1.2 is out' })).status).toBe(200);
    await receivers.waitFor('slack', (posts) => posts.length >= 1);
    await row.getByRole('link', { name: 'Release channel' }).click();
    await page.getByRole('heading', { name: 'Deliveries of Release channel' }).waitFor();
    await page.getByText(`${receivers.baseUrl}/slack/***`).waitFor();
    await eventually(async () => {
      await page.getByLabel('Status').selectOption('pending');
      await page.getByLabel('Status').selectOption('');
      expect(await page.locator('td[class^="delivery-"]').count()).toBe(1);
    }, 20_000);
    // Its charts, read from the bridge's own statistics.
    await page.getByRole('img', { name: 'Deliveries per hour' }).waitFor();
    await page.getByRole('img', { name: 'Latency' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bridge-deliveries');

    // The delivery's own page: what Slack was sent (to the URL masked) and what it answered.
    await page.getByRole('link', { name: /^[0-9a-f-]{36}$/ }).click();
    await page.getByRole('heading', { name: /^Delivery [0-9a-f-]{36}$/ }).waitFor();
    await eventually(async () => {
      await page.reload();
      await page.getByRole('heading', { name: 'Attempt 1: HTTP 200' }).waitFor({ timeout: 2_000 });
    }, 30_000);
    expect(await page.getByRole('figure', { name: 'Request body' }).textContent()).toContain('Release 1.2 is out');
    await page.getByText(`POST ${receivers.baseUrl}/slack/***`).waitFor();
    expect(await page.content()).not.toContain('release-secret');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the deliveries of Release channel' }).click();
    await page.getByRole('heading', { name: 'Deliveries of Release channel' }).waitFor();

    // Removed only once confirmed.
    await page.getByRole('link', { name: 'Back to the integrations' }).click();
    const listed = page.getByRole('region', { name: 'Bridges' }).getByRole('row', { name: /Release channel/ });
    const question = page.getByRole('dialog', { name: 'Remove bridge Release channel?' });
    await listed.getByRole('button', { name: 'Remove' }).click();
    await question.getByText('its inbound URL stops working').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    await listed.getByRole('button', { name: 'Remove' }).click();
    await question.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No bridges in this room.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Release channel removed.' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('asks for the Matrix room and bot token only for Matrix, and inbound only where the platform can send it', async () => {
    await signIn();
    const room = await v1('rooms/create', { name: 'Matrix Bridge', owner_user_id: '1' });
    await page.goto(`${stack.baseUrl}/#/rooms/${room.body.room.room_id}/integrations`);
    const bridges = page.getByRole('region', { name: 'Bridges' });
    await bridges.getByRole('button', { name: 'Add bridge' }).waitFor();
    expect(await bridges.getByLabel('Matrix room id').count()).toBe(0);
    await bridges.getByLabel('Platform').selectOption('matrix');
    await bridges.getByLabel('Matrix room id').waitFor();
    await bridges.getByLabel('Bot access token').waitFor();
    expect(await bridges.getByLabel('Homeserver URL').count()).toBe(1);
    expect(await bridges.getByRole('checkbox', { name: /Inbound/ }).count()).toBe(0);
    await bridges.getByLabel('Platform').selectOption('teams');
    await bridges.getByRole('checkbox', { name: /Inbound/ }).check();
    await bridges.getByLabel('HMAC security token (optional)').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
