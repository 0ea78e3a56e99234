// The authorization-code flow as a person walks it, in a real Chromium (RFC 6749 §4.1): the login
// page of the login listener, a wrong password, the right one, the redirect to the client's
// redirect URI with the code and state, the code exchange and an API call with the token. curl
// and inject() never run the page's Content-Security-Policy; a browser does.
//
// Debian's chromium (`apt-get install chromium`, which CI installs) is driven by playwright-core;
// no browser is downloaded. Set CHROMIUM_PATH to use another binary. Screenshots of the pages go
// to test-output/browser/ (git-ignored); their paths are printed.

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildServer } from '../../src/api/index.js';
import { checkContract } from '../api/helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUTPUT = join(ROOT, 'test-output', 'browser');
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && p !== '' && existsSync(p));
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The bundled demo tenant (fixtures/README.md): its web app client and its administrator.
const WEB_APP = { id: 'b7e5a1c0-3d2f-4e8a-9b6c-1f0e2d3c4b5a', secret: 'fixture-only-web-app-secret', name: 'Local web app' };
const ADMIN = { login: 'fatima.schroder', password: 'fixture-only-admin-password', id: '5a0c1e2f-0001-4a00-8000-000000000001' };
const TENANT = 'acme-sandbox';

if (CHROMIUM === undefined) {
  console.warn('NOTICE: the browser login test is skipped: no chromium at $CHROMIUM_PATH, /usr/bin/chromium or /usr/bin/chromium-browser (install it with `apt-get install -y chromium`).');
}

describe.skipIf(CHROMIUM === undefined)('the login page in Chromium', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'it-browser-'));
  let callback: Server;
  let redirectUri: string;
  let server: ApiServer;
  let urls: { baseUrl: string; loginUrl: string };
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // The client's redirect target: a tiny loopback page, as a native or local app has.
    callback = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Callback</title><p>Signed in: ${req.url?.length ?? 0} characters of query</p>`);
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;

    // The bundled tenant, with the web app's redirect URI pointed at that page.
    const fixtures = join(work, 'fixtures');
    cpSync(join(ROOT, 'fixtures'), fixtures, { recursive: true });
    const clientsFile = join(fixtures, 'oauth-clients.json');
    const clients = JSON.parse(readFileSync(clientsFile, 'utf8')) as { id: string; redirectUris?: string[] }[];
    clients.find((c) => c.id === WEB_APP.id)!.redirectUris = [redirectUri];
    writeFileSync(clientsFile, JSON.stringify(clients));

    server = await buildServer({ fixtures, tenantName: TENANT, logger: false, secretHashCost: 10 });
    // Every answer the browser and the client get from the three listeners is checked against /openapi.json.
    checkContract(server);
    urls = await server.listen({ host: '127.0.0.1' });

    mkdirSync(OUTPUT, { recursive: true });
    browser = await chromium.launchPersistentContext(join(work, 'profile'), {
      executablePath: CHROMIUM!,
      headless: true,
      args: FLAGS,
      viewport: { width: 800, height: 640 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    // A missing element fails the step in seconds, not at the test's timeout.
    page.setDefaultTimeout(15_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => callback?.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const authorizeUrl = (params: Record<string, string>) => `${urls.loginUrl}/oauth/authorize?${new URLSearchParams(params).toString()}`;

  /** An attribute of the element that has the keyboard focus. */
  const focused = (attribute: string) => page.evaluate<string | null>(`document.activeElement && document.activeElement.getAttribute(${JSON.stringify(attribute)})`);

  async function screenshot(name: string): Promise<void> {
    const file = join(OUTPUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot: ${file}`);
  }

  it('signs a person in and hands the client a code that buys a working token', async () => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    const state = 'st-' + Math.random().toString(36).slice(2);
    const response = await page.goto(authorizeUrl({ client_id: WEB_APP.id, response_type: 'code', redirect_uri: redirectUri, state }));
    expect(response?.status()).toBe(200);

    // A page for a phone as well as a desk, naming the tenant and the client, styled by its own sheet.
    expect(await page.locator('meta[name="viewport"]').count()).toBe(1);
    expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('width=device-width');
    await expect.poll(() => page.locator('h1').textContent()).toContain(TENANT);
    expect(await page.textContent('body')).toContain(WEB_APP.name);
    const styled = await page.evaluate<string | false>(`document.styleSheets.length > 0 && getComputedStyle(document.querySelector('button')).backgroundColor`);
    expect(styled).not.toBe(false);
    expect(styled).not.toBe('rgb(239, 239, 239)'); // the browser's default button
    expect(await focused('name')).toBe('username');
    await screenshot('login-page');

    // A wrong password: the page again, the error announced and focused, the login kept.
    await page.getByLabel('Username').fill(ADMIN.login);
    await page.getByLabel('Password').fill('not-the-password');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.waitForSelector('[role="alert"]');
    expect(new URL(page.url()).origin).toBe(urls.loginUrl);
    expect(await page.getByRole('alert').textContent()).toContain('Invalid username or password.');
    expect(await focused('role')).toBe('alert');
    expect(await page.getByLabel('Username').inputValue()).toBe(ADMIN.login);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await screenshot('login-page-wrong-password');

    // The right password: the browser lands on the client's redirect URI with a code and the state.
    await page.getByLabel('Password').fill(ADMIN.password);
    await Promise.all([page.waitForURL((u) => u.toString().startsWith(redirectUri), { timeout: 15_000 }), page.getByRole('button', { name: 'Sign in' }).click()]);
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(redirectUri);
    expect(landed.searchParams.get('state')).toBe(state);
    const code = landed.searchParams.get('code');
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(violations.filter((v) => /Content Security Policy/i.test(v))).toEqual([]);

    // The client exchanges the code and calls the API as the person.
    const tokenRes = await fetch(`${urls.baseUrl}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: WEB_APP.id, client_secret: WEB_APP.secret, code: code!, redirect_uri: redirectUri }),
    });
    expect(tokenRes.status).toBe(200);
    const tokens = (await tokenRes.json()) as { access_token: string; user_id: string };
    expect(tokens.user_id).toBe(ADMIN.id);
    const api = await fetch(`${urls.baseUrl}/v3/oauth-clients`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { id: string }[]).map((c) => c.id)).toContain(WEB_APP.id);
  });

  it('fits a phone screen without sideways scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    try {
      await page.goto(authorizeUrl({ client_id: WEB_APP.id, response_type: 'code', redirect_uri: redirectUri, state: 's' }));
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      const box = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      await screenshot('login-page-phone');
    } finally {
      await page.setViewportSize({ width: 800, height: 640 });
    }
  });

  it.each([
    ['an unknown client', { client_id: '99999999-0000-4000-8000-000000000000' }, 'Unknown or disabled client.'],
    ['a redirect URI the client does not have', { redirect_uri: 'https://evil.example/steal' }, 'The redirect_uri does not match'],
  ])('shows a person a page, not JSON and not a redirect, for %s', async (name, override, text) => {
    const params = { client_id: WEB_APP.id, response_type: 'code', redirect_uri: redirectUri, state: 's', ...override };
    const response = await page.goto(authorizeUrl(params));
    expect(response?.status()).toBe(400);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(new URL(page.url()).origin).toBe(urls.loginUrl);
    expect(await page.locator('h1').textContent()).toMatch(/cannot sign in/i);
    expect(await page.textContent('main')).toContain(text);
    expect(await page.locator('meta[name="viewport"]').count()).toBe(1);
    if (name === 'an unknown client') await screenshot('authorize-error');
  });
});
