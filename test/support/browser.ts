import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Browser, chromium, ConsoleMessage, Page } from 'playwright-core';
import { ROOT } from './processes';

/**
 * Chromium from the machine's packages (Debian's `chromium`), driven by playwright-core: no
 * browser is downloaded. CHROMIUM_PATH names another binary. A machine without one fails the
 * browser suite with the way to install it (.ci/run installs it), never skips it.
 */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
    .filter((p): p is string => !!p);
  for (const candidate of candidates) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v chromium chromium-browser google-chrome | head -1'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  throw new Error('No Chromium found for the browser tests: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Containers and CI runners often lack the sandbox's kernel features and a large /dev/shm.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/**
 * Problems a page reports as they happen: script errors, CSP violations and console errors.
 * A test ends by expecting none (or exactly the ones it provoked).
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  return problems;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: string[] }

/**
 * axe-core's serious and critical violations on the page as it is now. Injected through the
 * DevTools protocol (evaluate), which the page's CSP does not apply to: the CSP under test
 * stays as strict as users get it.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Screenshots of the page as <name>.png (light) and <name>-dark.png (the dark theme, by
 * prefers-color-scheme): in dist/screenshots on every run (what the suite saw, for looking into
 * a failure), in docs/console (the README shows them) when CONSOLE_SCREENSHOTS=docs
 * (`npm run screenshots`), so that a test run leaves the tree as it was. `light: true` takes
 * the light one only (a narrow screen's, say).
 */
export async function screenshot(page: Page, name: string, options: { light?: boolean } = {}): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs', 'console') : path.join(ROOT, 'dist', 'screenshots');
  mkdirSync(dir, { recursive: true });
  // From the top: a full-page picture of a scrolled page draws the sticky sidebar where the scroll left it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  if (options.light) return;
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await page.screenshot({ path: path.join(dir, `${name}-dark.png`), fullPage: true });
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

/**
 * Signs in on the console's form as a person would, and waits for the Rooms page. The page asked
 * who is signed in first: that 401 ("nobody") is expected, so the problems seen so far are cleared.
 */
export async function signInToConsole(page: Page, baseUrl: string, email: string, password: string, problems: string[]): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Rooms' }).waitFor();
  problems.length = 0;
}
