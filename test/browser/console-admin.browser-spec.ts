/// <reference lib="dom" />
/**
 * Administration in the console, as a group admin does it, in Chromium against the whole built
 * system: adding a person with an invitation link that they take in another browser, reading the
 * audit line it left, promoting, demoting and deleting with the effects confirmed first, and a
 * room's settings. Found by accessible names, each screen (and each open dialog) checked by axe.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { eventually } from '../support/common';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(180_000);

const PASSWORD = 'correct horse battery';

describe('web console: administration', () => {
  let stack: TestSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let admin: string;
  let adaId: number;

  const v1 = async (method: string, params: Record<string, string>, verb: 'GET' | 'POST' = 'POST') => {
    const query = new URLSearchParams({ auth_token: admin, ...params });
    const res = verb === 'GET'
      ? await fetch(`${stack.baseUrl}/v1/${method}?${query}`)
      : await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: query });
    return { status: res.status, body: await res.json() as any };
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestSystem('browser_admin'), launchBrowser()]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'admin browser'], stack.env).stdout.trim();
    const ada = await v1('users/create', { email: 'ada@example.com', name: 'Ada Lovelace', mention_name: 'ada', password: PASSWORD, is_group_admin: '1' });
    expect(ada.status).toBe(200);
    adaId = ada.body.user.user_id;
    expect((await v1('users/create', { email: 'bob@example.com', name: 'Bob Member', mention_name: 'bob', password: PASSWORD })).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  beforeEach(async () => {
    // Clipboard access, as a person's browser grants it on their click: the link is copied as they would.
    context = await browser.newContext({ viewport: { width: 1200, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    problems = watchProblems(page);
  });
  afterEach(async () => {
    await context?.close();
  });

  function signIn(email = 'ada@example.com'): Promise<void> {
    return signInToConsole(page, stack.baseUrl, email, PASSWORD, problems);
  }

  async function openPeople(): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'People' }).waitFor();
  }

  const row = (name: string) => page.getByRole('table', { name: 'People' }).getByRole('row', { name: new RegExp(name) });

  it('adds a person with an invitation link, which they take in their own browser, and the audit log shows the line it left', async () => {
    await signIn();
    await openPeople();
    await expect(page.title()).resolves.toBe('People – Chat');
    await expect(row('Bob Member').getByRole('cell').allTextContents()).resolves.toEqual(['@bob', 'bob@example.com', 'Member', expect.stringContaining('Promote')]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'people');

    // Search by @mention, then by e-mail address.
    await page.getByLabel('Search people').fill('@bo');
    await expect(page.getByRole('table', { name: 'People' }).getByRole('row').count()).resolves.toBe(2);
    await page.getByLabel('Search people').fill('ada@example');
    await row('Ada Lovelace').waitFor();
    await expect(row('Bob Member').count()).resolves.toBe(0);
    await page.getByLabel('Search people').fill('');

    const add = page.getByRole('button', { name: 'Add person' });
    await add.click();
    await expect(add.getAttribute('aria-expanded')).resolves.toBe('true');
    const form = page.getByRole('form', { name: 'Add person' });
    await form.getByLabel('Name', { exact: true }).fill('Ann Lee');
    await form.getByLabel('Mention name').fill('annlee');
    await form.getByLabel('E-mail').fill('ann@example.com');
    await expect(form.getByRole('radio', { name: 'Send an invitation link' }).isChecked()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add and make invitation link' }).click();

    const shown = page.getByRole('region', { name: 'Invitation link for Ann Lee' });
    await shown.waitFor();
    await row('Ann Lee').waitFor();
    await shown.getByRole('button', { name: 'Copy invitation link' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation link copied.' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${stack.baseUrl.replace(/[.]/g, '\\.')}/#/invitation/[A-Za-z0-9_-]{16,}$`));
    await expect(shown.getByRole('textbox', { name: 'Invitation link' }).inputValue()).resolves.toBe(link);

    // Ann, in a browser of her own (signed out): she chooses a password and is signed in.
    const hers = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const annPage = await hers.newPage();
      const annProblems = watchProblems(annPage);
      await annPage.goto(link);
      await annPage.getByRole('heading', { name: 'Choose a password' }).waitFor();
      // The page's question whether a session is open (none: 401) is the only error so far.
      expect(annProblems).toEqual([expect.stringMatching(/401/)]);
      annProblems.length = 0;
      await expect(annPage.title()).resolves.toBe('Choose a password – Chat');
      expect(await seriousA11yViolations(annPage)).toEqual([]);
      await annPage.getByLabel('Password', { exact: true }).fill('ann chooses this');
      await annPage.getByLabel('Password again').fill('ann chooses this');
      await annPage.getByRole('button', { name: 'Choose password and sign in' }).click();
      await annPage.getByRole('heading', { name: 'Rooms' }).waitFor();
      await expect(annPage.locator('header .who').textContent()).resolves.toBe('Ann Lee');
      // A member, not a group admin: no People link.
      await expect(annPage.getByRole('link', { name: 'People' }).count()).resolves.toBe(0);
      expect(annProblems).toEqual([]);
    } finally {
      await hers.close();
    }

    // The link works once: in another browser it says so, and where to sign in instead.
    const again = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const used = await again.newPage();
      await used.goto(link);
      await used.getByLabel('Password', { exact: true }).fill('somebody else');
      await used.getByLabel('Password again').fill('somebody else');
      await used.getByRole('button', { name: 'Choose password and sign in' }).click();
      await used.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
      await used.getByRole('alert').waitFor();
      await used.getByRole('link', { name: 'Sign in' }).click();
      await used.getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await again.close();
    }

    // Back as the admin: the audit log, filtered by action, shows the line Ann's choice left.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('table', { name: /Audit log, lines 1 to/ }).waitFor();
    await page.getByLabel('Action', { exact: true }).selectOption('user.invitation_accepted');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const table = page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' });
    await table.waitFor();
    await expect(table.getByRole('row').nth(1).textContent()).resolves.toMatch(/Ann Lee \(user \d+\).*user\.invitation_accepted.*Ann Lee/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'audit-log');
    // And who sent the invitation: the admin, filtered by who acted and what.
    await page.getByLabel('Who', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    await page.getByLabel('Action', { exact: true }).selectOption('user.invited');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' }).getByRole('row').nth(1).textContent())
      .resolves.toMatch(/Ada Lovelace \(user \d+\).*user\.invited.*Ann Lee/);
    expect(problems).toEqual([]);
  });

  it('promotes, then demotes and deletes a person, each loss listed in a confirmation first, and Cancel does nothing', async () => {
    await signIn();
    await openPeople();
    // Added with a password the admin chooses (no link then).
    await page.getByRole('button', { name: 'Add person' }).click();
    const form = page.getByRole('form', { name: 'Add person' });
    await form.getByLabel('Name', { exact: true }).fill('Cy Twombly');
    await form.getByLabel('Mention name').fill('@cy');
    await form.getByLabel('E-mail').fill('cy@example.com');
    await form.getByRole('radio', { name: 'Set a password' }).check();
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Add with this password' }).click();
    await page.getByRole('status').filter({ hasText: 'Cy Twombly was added with the password you chose.' }).waitFor();
    await expect(page.getByRole('region', { name: /Invitation link/ }).count()).resolves.toBe(0);
    const cy = row('Cy Twombly');
    await expect(cy.getByRole('cell').first().textContent()).resolves.toBe('@cy');
    const signsIn = await fetch(`${stack.baseUrl}/v2/session`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'cy@example.com', password: PASSWORD }),
    });
    expect(signsIn.status).toBe(201);

    await cy.getByRole('button', { name: 'Promote' }).click();
    await page.getByRole('status').filter({ hasText: 'Cy Twombly is now a group admin.' }).waitFor();
    await cy.getByRole('cell', { name: 'Group admin' }).waitFor();

    await cy.getByRole('button', { name: 'Demote' }).click();
    const demote = page.getByRole('dialog', { name: 'Demote Cy Twombly?' });
    await demote.waitFor();
    // What the service says a demotion does, one item each.
    await expect(demote.getByRole('listitem').count()).resolves.toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await demote.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Cy Twombly is no longer a group admin.' }).waitFor();
    await cy.getByRole('cell', { name: 'Member' }).waitFor();
    const who = await v1(`users/show`, { user_id: 'cy@example.com' }, 'GET');
    expect(who.body.user.is_group_admin).toBe(0);
    // The whole user was put back as it was: only the standing changed.
    expect([who.body.user.name, who.body.user.mention_name]).toEqual(['Cy Twombly', 'cy']);

    const remove = cy.getByRole('button', { name: 'Delete' });
    await remove.click();
    const ask = page.getByRole('dialog', { name: 'Delete Cy Twombly?' });
    await ask.waitFor();
    await expect(ask.getByRole('listitem').count()).resolves.toBeGreaterThan(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    // Nothing happened, and focus is back on the button that asked.
    await eventually(async () => expect(await remove.evaluate((el) => el === document.activeElement)).toBe(true));
    await expect(cy.count()).resolves.toBe(1);
    expect((await v1('users/show', { user_id: 'cy@example.com' }, 'GET')).status).toBe(200);

    await remove.click();
    await page.getByRole('dialog', { name: 'Delete Cy Twombly?' }).getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Cy Twombly was deleted.' }).waitFor();
    await cy.waitFor({ state: 'detached' });
    expect((await v1('users/show', { user_id: 'cy@example.com' }, 'GET')).status).toBe(404);
    // Nothing of the page scrolls sideways on a phone: the table scrolls within its own box.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.locator('main').evaluate((main) => main.scrollWidth <= main.clientWidth && main.getBoundingClientRect().right <= 375)).resolves.toBe(true);
    expect(problems).toEqual([]);
  });

  it("changes a room's name, privacy and owner, archives it and deletes it, from its Settings link", async () => {
    const room = await v1('rooms/create', { name: 'Ops', owner_user_id: String(adaId) });
    expect(room.status).toBe(200);
    const roomId = room.body.room.room_id as number;
    await signIn();
    await page.goto(`${stack.baseUrl}/#/rooms/${roomId}`);
    await page.getByRole('heading', { name: 'Ops', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings of Ops' }).waitFor();
    await expect(page.title()).resolves.toBe('Settings of Ops – Chat');
    await expect(page.getByLabel('Owner', { exact: true }).locator('option:checked').textContent()).resolves.toBe('Ada Lovelace (@ada)');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'room-settings');

    // Rename and make private: narrowing who sees it is confirmed, with what it does.
    await page.getByLabel('Name', { exact: true }).fill('Ops team');
    await page.getByRole('radio', { name: 'Private' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    const narrow = page.getByRole('dialog', { name: 'Make the room Ops private?' });
    await narrow.waitFor();
    await expect(narrow.getByRole('listitem').first().textContent()).resolves.toMatch(/Only its members/);
    await narrow.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.getByRole('heading', { name: 'Settings of Ops team' }).waitFor();
    let shown = await v1('rooms/show', { room_id: String(roomId) }, 'GET');
    expect([shown.body.room.name, shown.body.room.is_private]).toEqual(['Ops team', true]);

    // A new owner (a group admin changes it without a question).
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Bob Member (@bob)' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    shown = await v1('rooms/show', { room_id: String(roomId) }, 'GET');
    expect(shown.body.room.owner_user_id).toBe((await v1('users/show', { user_id: 'bob@example.com' }, 'GET')).body.user.user_id);

    // Archive (confirmed), then open it again.
    await page.getByRole('button', { name: 'Archive room' }).click();
    await page.getByRole('dialog', { name: 'Archive the room Ops team?' }).getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'The room is archived.' }).waitFor();
    expect((await v1('rooms/show', { room_id: String(roomId) }, 'GET')).body.room.is_archived).toBe(true);
    await page.getByRole('button', { name: 'Unarchive room' }).click();
    await page.getByRole('status').filter({ hasText: 'The room is open again.' }).waitFor();
    expect((await v1('rooms/show', { room_id: String(roomId) }, 'GET')).body.room.is_archived).toBe(false);

    // Delete: said what goes with it; Cancel keeps it, Confirm deletes it.
    await page.getByRole('button', { name: 'Delete room' }).click();
    const ask = page.getByRole('dialog', { name: 'Delete the room Ops team? Its history, webhooks and bridges go with it.' });
    await ask.waitFor();
    await expect(ask.getByRole('listitem').allTextContents()).resolves.toContain('This cannot be undone.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await v1('rooms/show', { room_id: String(roomId) }, 'GET')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete room' }).click();
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Rooms' }).waitFor();
    expect((await v1('rooms/show', { room_id: String(roomId) }, 'GET')).status).toBe(404);
    await expect(page.getByRole('link', { name: 'Ops team' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it("gives a member who owns a room its settings, asks before they give it away, and offers them neither People nor another's settings", async () => {
    const bobId = (await v1('users/show', { user_id: 'bob@example.com' }, 'GET')).body.user.user_id as number;
    const mine = (await v1('rooms/create', { name: "Bob's room", owner_user_id: String(bobId) })).body.room.room_id as number;
    const theirs = (await v1('rooms/create', { name: 'Front desk', owner_user_id: String(adaId) })).body.room.room_id as number;
    await signIn('bob@example.com');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).count()).resolves.toBe(0);
    await page.goto(`${stack.baseUrl}/#/people`);
    await page.getByRole('heading', { name: 'People' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Only group admins manage people.' }).waitFor();
    await expect(page.getByRole('button', { name: 'Add person' }).count()).resolves.toBe(0);

    // Another's room: its settings are shown, not offered.
    await page.goto(`${stack.baseUrl}/#/rooms/${theirs}/settings`);
    await page.getByRole('heading', { name: 'Settings of Front desk' }).waitFor();
    await page.getByText("Only the room's owner (Ada Lovelace) and group admins can change these settings.").waitFor();
    await expect(page.getByLabel('Name', { exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Save settings' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete room' }).count()).resolves.toBe(0);

    // Their own: giving it away is confirmed, saying they lose it; Cancel keeps it theirs.
    await page.goto(`${stack.baseUrl}/#/rooms/${mine}/settings`);
    await page.getByRole('heading', { name: "Settings of Bob's room" }).waitFor();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Ada Lovelace (@ada)' });
    await page.getByRole('button', { name: 'Save settings' }).click();
    const ask = page.getByRole('dialog', { name: "Make Ada Lovelace the owner of Bob's room?" });
    await ask.waitFor();
    await expect(ask.getByRole('listitem').textContent()).resolves.toBe('You will no longer own it, nor change its settings: Ada Lovelace will.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await v1('rooms/show', { room_id: String(mine) }, 'GET')).body.room.owner_user_id).toBe(bobId);
    expect(problems).toEqual([]);
  });
});
