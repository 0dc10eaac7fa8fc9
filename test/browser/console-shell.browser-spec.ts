/// <reference lib="dom" />
/**
 * The console's shell, in Chromium against the whole built system, as a person uses it: the
 * sidebar of rooms and private chats whose counts move while a colleague writes, the tab's
 * title, browser notifications asked for by the person, the end of a session, a narrow screen's
 * drawer and the dark theme.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(180_000);

const PASSWORD = 'correct horse battery';
const SCOPES = 'send_message,view_group,view_messages,manage_rooms';

describe('web console: the shell', () => {
  let stack: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let admin: string;
  let adaToken: string;
  let bobToken: string;
  let adaId: number;
  let bobId: number;
  let opsId: number;

  const v1 = async (method: string, params: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: new URLSearchParams({ auth_token: admin, ...params }) });
    return { status: res.status, body: await res.json() as any };
  };
  const v2 = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method, headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** A room of Ada's (she owns it), for one test. */
  const adaRoom = async (name: string): Promise<number> => {
    const made = await v2(adaToken, 'POST', '/v2/room', { name });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  /** Bob writes in a room, as an integration or a colleague would. */
  const bobSays = async (roomId: number, message: string) => expect((await v2(bobToken, 'POST', `/v2/room/${roomId}/message`, { message })).status).toBe(201);

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestSystem('browser_shell'), launchBrowser()]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'shell browser'], stack.env).stdout.trim();
    const ada = await v1('users/create', { email: 'ada@example.com', name: 'Ada Lovelace', mention_name: 'ada', password: PASSWORD });
    const bob = await v1('users/create', { email: 'bob@example.com', name: 'Bob Member', mention_name: 'bob', password: PASSWORD });
    expect([ada.status, bob.status]).toEqual([200, 200]);
    adaId = Number(ada.body.user.user_id);
    bobId = Number(bob.body.user.user_id);
    adaToken = cli(['token', 'create', '--type', 'personal', '--user', 'ada@example.com', '--scopes', SCOPES], stack.env).stdout.trim();
    bobToken = cli(['token', 'create', '--type', 'personal', '--user', 'bob@example.com', '--scopes', SCOPES], stack.env).stdout.trim();
    opsId = await adaRoom('Ops');
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await context?.close();
  });

  const sidebar = () => page.getByRole('navigation', { name: 'Rooms and chats' });
  const entry = (name: string) => sidebar().getByRole('link', { name, exact: true });

  async function signIn(hash = ''): Promise<void> {
    await page.goto(`${stack.baseUrl}/${hash}`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The sidebar's counts move from now on (in the drawer, closed on a narrow screen).
    await page.getByText('Counts update live.').waitFor({ state: 'attached' });
    // The page asked who is signed in before: that 401 is how it learns "nobody".
    problems.length = 0;
  }

  it('counts a mention live in the sidebar and the tab title, and opening the room reads it', async () => {
    await signIn();
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    await entry('Ops').waitFor();
    await page.waitForFunction(() => document.title === 'Rooms – Chat');

    await bobSays(opsId, 'The deploy is red, @ada can you look?');
    await entry('Ops, 1 unread, mentioned').waitFor();
    await page.waitForFunction(() => document.title === '(1) Rooms – Chat');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'rooms');

    await entry('Ops, 1 unread, mentioned').click();
    await page.getByRole('heading', { name: 'Ops' }).waitFor();
    await expect(entry('Ops').getAttribute('aria-current')).resolves.toBe('page');
    await page.waitForFunction(() => !document.title.startsWith('('));
    expect(problems).toEqual([]);
  });

  it('lists a room the person creates at once, and counts what is said in it from then on', async () => {
    await signIn();
    await page.getByLabel('Room name').fill('Fresh paint');
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.getByRole('heading', { name: 'Fresh paint' }).waitFor();
    // Listed once the person's stream has connected again with the new room in it.
    await entry('Fresh paint').waitFor();
    const roomId = Number(/^#\/rooms\/(\d+)$/.exec(new URL(page.url()).hash)![1]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    await bobSays(roomId, 'Nice room, @ada');
    await entry('Fresh paint, 1 unread, mentioned').waitFor();
    expect(problems).toEqual([]);
  });

  it('shows a private message from a colleague as a new chat with its count, and starts one from "New chat"', async () => {
    await signIn();
    await entry('Ops').waitFor();
    expect((await v2(bobToken, 'POST', `/v2/user/${adaId}/message`, { message: 'Lunch at noon?' })).status).toBe(204);
    await entry('Bob Member, 1 unread').waitFor();
    await page.waitForFunction(() => document.title.startsWith('(1) '));

    // Starting a chat by keyboard: the list of people, filtered as one types.
    await sidebar().getByRole('button', { name: 'New chat' }).click();
    await eventually(async () => expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-chat-person'));
    await page.keyboard.type('bob');
    await sidebar().getByRole('list', { name: 'People' }).getByRole('link', { name: /Bob Member/ }).click();
    await page.waitForFunction((id) => location.hash === `#/chats/${id}`, bobId);
    // The chat open is read.
    await expect(entry('Bob Member').getAttribute('aria-current')).resolves.toBe('page');
    expect(problems).toEqual([]);
  });

  it('asks for notifications only when the person turns them on, then notifies a mention that opens its room', async () => {
    await context.grantPermissions(['notifications'], { origin: stack.baseUrl });
    // The permission is granted by the browser at once; the page sees "not asked yet" until it asks,
    // and every notification it makes is recorded.
    await page.addInitScript(() => {
      const Real = window.Notification;
      const w = window as unknown as { asked: number; shown: Array<{ title: string; body?: string }>; last: Notification | null };
      w.asked = 0;
      w.shown = [];
      w.last = null;
      class Watched extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          w.shown.push({ title, body: options?.body });
          w.last = this;
        }
        static override get permission(): NotificationPermission { return w.asked > 0 ? Real.permission : 'default'; }
        static override requestPermission(): Promise<NotificationPermission> {
          w.asked += 1;
          return Real.requestPermission();
        }
      }
      Object.defineProperty(window, 'Notification', { value: Watched, configurable: true, writable: true });
    });
    const releases = await adaRoom('Releases');
    await signIn();
    await entry('Releases').waitFor();
    expect(await page.evaluate(() => (window as any).asked)).toBe(0);
    await sidebar().getByRole('button', { name: 'Turn on notifications' }).click();
    await sidebar().getByText('Notifications are on for mentions and private messages.').waitFor();
    expect(await page.evaluate(() => (window as any).asked)).toBe(1);

    // A message without a mention counts but is not notified; the mention after it is.
    await bobSays(releases, 'Coffee is ready');
    await bobSays(releases, '@ada the release notes need you');
    await page.waitForFunction(() => (window as any).shown.length > 0);
    await entry('Releases, 2 unread, mentioned').waitFor();
    expect(await page.evaluate(() => (window as any).shown)).toEqual([{ title: 'Bob Member in Releases', body: '@ada the release notes need you' }]);
    await page.evaluate(() => (window as any).last.onclick(new Event('click')));
    await page.getByRole('heading', { name: 'Releases' }).waitFor();
    await page.waitForFunction((id) => location.hash === `#/rooms/${id}`, releases);
    expect(problems).toEqual([]);
  });

  it('says the session ended, and signing in again returns to the page', async () => {
    await signIn(`#/rooms/${opsId}`);
    await page.getByRole('heading', { name: 'Ops' }).waitFor();
    // The session is gone (signed out elsewhere, or expired): the next request says so, be it
    // the room page's own (a participant entered) or the person going to another page.
    await context.clearCookies();
    await page.evaluate(() => { location.hash = '#/tokens'; });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Your session has ended. Sign in again.');
    await page.waitForFunction(() => document.title === 'Sign in – Chat');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/tokens');
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
  });

  it('fits a 375 px screen without sideways scrolling, the sidebar a drawer used by keyboard', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn();
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= 375);
    await expect(noSidewaysScroll()).resolves.toBe(true);
    // The drawer is closed: the sidebar is not on the screen (nor in the accessibility tree).
    await expect(sidebar().isVisible()).resolves.toBe(false);
    const toggle = page.getByRole('button', { name: 'Rooms and chats' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await entry('Ops').waitFor();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    // Focus went into the drawer; Escape closes it and gives focus back to its button.
    await eventually(async () => expect(await page.evaluate(() => !!document.activeElement?.closest('nav[aria-label="Rooms and chats"]'))).toBe(true));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'drawer-375', { light: true });
    await page.keyboard.press('Escape');
    await sidebar().waitFor({ state: 'hidden' });
    await eventually(async () => expect(await page.evaluate(() => document.activeElement?.id)).toBe('drawer-toggle'));
    await page.keyboard.press('Enter');
    // On a narrow screen the drawer's button tells of what is new.
    await bobSays(opsId, 'Anyone on a phone?');
    // (The count is of every chat: what earlier tests left unread depends on the pages that read them.)
    await page.getByRole('button', { name: /^Rooms and chats \d+ unread$/ }).waitFor();
    await entry('Ops, 1 unread').click();
    await page.getByRole('heading', { name: 'Ops' }).waitFor();
    await sidebar().waitFor({ state: 'hidden' });
    await expect(noSidewaysScroll()).resolves.toBe(true);
    await screenshot(page, 'room-375', { light: true });
    for (const hash of ['#/rooms', '#/tokens', '#/nowhere']) {
      await page.evaluate((h) => { location.hash = h; }, hash);
      await page.locator('main h1').waitFor();
      await expect(noSidewaysScroll()).resolves.toBe(true);
    }
    expect(problems).toEqual([]);
  });

  it('follows the dark theme with nothing axe finds serious, and names every page in the tab', async () => {
    const night = await adaRoom('Night shift');
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn();
    await entry('Night shift').waitFor();
    await bobSays(night, 'Dark mode check, @ada');
    await entry('Night shift, 1 unread, mentioned').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
    await sidebar().getByRole('button', { name: 'New chat' }).click();
    await sidebar().getByRole('list', { name: 'People' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${stack.baseUrl}/#/tokens`);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${stack.baseUrl}/#/no/such/page`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await page.waitForFunction(() => /^(\(\d+\) )?Not found – Chat$/.test(document.title));
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
