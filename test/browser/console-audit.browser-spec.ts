/**
 * The console's Audit log page, in Chromium against the whole built system: reached by
 * keyboard from the main navigation by a group admin, a table named for screen readers;
 * absent for anyone else.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, seriousA11yViolations, signInToConsole, watchProblems } from '../support/browser';
import { cli, startTestSystem, TestSystem } from '../support/processes';

jest.setTimeout(180_000);

const PASSWORD = 'correct horse battery';

describe('web console: the audit log', () => {
  let stack: TestSystem;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let admin: string;

  const v1 = async (method: string, params: Record<string, string>) => {
    const res = await fetch(`${stack.baseUrl}/v1/${method}`, { method: 'POST', body: new URLSearchParams({ auth_token: admin, ...params }) });
    return { status: res.status, body: await res.json() as any };
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestSystem('browser_audit'), launchBrowser()]);
    admin = cli(['token', 'create', '--type', 'admin', '--label', 'audit browser'], stack.env).stdout.trim();
    expect((await v1('users/create', { email: 'ada@example.com', name: 'Ada Admin', password: PASSWORD, is_group_admin: '1' })).status).toBe(200);
    const bob = await v1('users/create', { email: 'bob@example.com', name: 'Bob Member', password: PASSWORD });
    expect(bob.status).toBe(200);
    // Two access changes, made with the v1 admin token (the actor the log names).
    expect((await v1('users/update', { user_id: String(bob.body.user.user_id), is_group_admin: '1' })).status).toBe(200);
    expect((await v1('users/update', { user_id: String(bob.body.user.user_id), is_group_admin: '0' })).status).toBe(200);
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

  function signIn(email: string): Promise<void> {
    return signInToConsole(page, stack.baseUrl, email, PASSWORD, problems);
  }

  it('shows a group admin who changed access, newest first, reached by keyboard from the navigation', async () => {
    await signIn('ada@example.com');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const table = page.getByRole('table', { name: /Audit log, lines 1 to/ });
    await table.waitFor();
    const rows = table.getByRole('row');
    // The header, then the demotion (newest) and the promotion.
    await expect(rows.nth(1).textContent()).resolves.toMatch(/audit browser \(token \d+\).*user\.demoted.*Bob Member \(user \d+\)/);
    await expect(rows.nth(2).textContent()).resolves.toMatch(/user\.promoted.*Bob Member/);
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual(['When', 'Who', 'Action', 'Target', 'Details', 'Address']);
    await expect(link.getAttribute('aria-current')).resolves.toBe('page');
    // One page only: Older is not offered, Newer neither.
    await expect(page.getByRole('button', { name: 'Older' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Newer' }).isDisabled()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('filters the log by action and dates, keeps the filter on a reload, and clears it', async () => {
    await signIn('ada@example.com');
    await page.goto(`${stack.baseUrl}/#/audit`);
    await page.getByRole('table', { name: /Audit log, lines 1 to/ }).waitFor();
    await expect(page.title()).resolves.toBe('Audit log – Chat');
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('Action', { exact: true }).selectOption('user.promoted');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const filtered = page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' });
    await filtered.waitFor();
    await expect(filtered.getByRole('row').nth(1).textContent()).resolves.toMatch(/user\.promoted.*Bob Member/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A reload shows the same lines, the filter as it was chosen.
    await page.reload();
    await page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' }).waitFor();
    await expect(filters.getByLabel('Action', { exact: true }).inputValue()).resolves.toBe('user.promoted');

    // Dates are whole days where the reader is: from tomorrow, nothing; up to today, the line.
    const [today, tomorrow] = await page.evaluate(() => {
      const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      const now = new Date();
      return [day(now), day(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1))];
    });
    await filters.getByLabel('From').fill(tomorrow);
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('status').filter({ hasText: 'No line matches these filters.' }).waitFor();
    await filters.getByLabel('From').fill(today);
    await filters.getByLabel('To').fill(today);
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' }).waitFor();

    // A person who made no change (Ada changed nothing here: the token did).
    await filters.getByLabel('Who').selectOption({ label: 'Ada Admin' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('status').filter({ hasText: 'No line matches these filters.' }).waitFor();

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    const all = page.getByRole('table', { name: /^Audit log, lines 1 to \d+$/ });
    await all.waitFor();
    await expect(all.getByRole('row').count()).resolves.toBeGreaterThanOrEqual(3);
    await expect(filters.getByLabel('Action', { exact: true }).inputValue()).resolves.toBe('');
    expect(problems).toEqual([]);
  });

  it('offers no Audit log to a member who is not a group admin, and the page tells them why when typed in', async () => {
    await signIn('bob@example.com');
    await expect(page.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    await page.goto(`${stack.baseUrl}/#/audit`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(problems.filter((p) => !/403/.test(p))).toEqual([]);
  });

  it('still finds a deleted room\'s lines: the Room filter offers it, marked deleted', async () => {
    const made = await v1('rooms/create', { name: 'Launch', owner_user_id: '1', privacy: 'private' });
    expect(made.status).toBe(200);
    expect((await v1('rooms/delete', { room_id: String(made.body.room.room_id) })).status).toBe(200);
    await signIn('ada@example.com');
    await page.goto(`${stack.baseUrl}/#/audit`);
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByRole('option', { name: 'Launch (deleted)' }).waitFor({ state: 'attached' });
    await filters.getByLabel('Room').selectOption({ label: 'Launch (deleted)' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const filtered = page.getByRole('table', { name: 'Audit log, lines 1 to 1 (filtered)' });
    await filtered.waitFor();
    await expect(filtered.getByRole('row').nth(1).textContent()).resolves.toMatch(/room\.deleted.*Launch \(room \d+\)/);
    expect(problems).toEqual([]);
  });
});
