// The playground's token after the page opens (docs/playground.md, "What stays on this machine"):
// the installed package's `identity-transforms play`, its printed URL opened in a real Chromium.
// The page takes the token out of the address bar and the tab's history as it loads, and keeps it
// for the tab only: a reload still evaluates, going back finds no URL with the token, and another
// tab opened at the bare address has no access.
//
// Debian's chromium is driven by playwright-core (play-process.ts); set CHROMIUM_PATH for another
// binary.

import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed } from './install.js';
import { CHROMIUM, CHROMIUM_FLAGS, startPlay } from './play-process.js';


/** Wait for what the page shows, as long as a loaded machine may take to answer. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 100 });

const GREETING = '{\n  "name": "Greeting",\n  "type": "static",\n  "attributes": { "value": "Hello there" }\n}\n';

describe.skipIf(CHROMIUM === undefined)('the playground token in Chromium, from the installed package', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'it-play-token-'));
  let play: ChildProcess;
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** The token of every API call the page made. */
  const sent: string[] = [];

  const value = () => page.locator('#value');

  async function setText(text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(text);
  }

  beforeAll(async () => {
    const pkg = await installed();
    cpSync(join(pkg.consumer, 'node_modules/identity-transforms/fixtures'), join(work, 'fixtures'), { recursive: true });
    ({ play, url } = await startPlay(pkg.bin, work, pkg.env));
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: CHROMIUM_FLAGS });
    context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('request', (r) => {
      const auth = r.headers().authorization;
      if (r.url().includes('/api/') && auth !== undefined) sent.push(auth);
    });
    // A page visited before, so that going back has somewhere to go.
    await page.goto('about:blank');
    await page.goto(url);
  }, 1_800_000);

  afterAll(async () => {
    await browser?.close();
    play?.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  });

  it('takes the token out of the address bar as it loads, and its API calls carry it', async () => {
    await poll(() => value().textContent()).toBe('"Hello"');
    const token = new URL(url).searchParams.get('token')!;
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    expect(page.url()).not.toContain(token);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent)).toEqual(new Set([`token ${token}`]));
  });

  it('leaves no entry with the token in the tab history', async () => {
    const token = new URL(url).searchParams.get('token')!;
    expect(await page.evaluate('history.length')).toBe(2);
    await page.goBack();
    expect(page.url()).toBe('about:blank');
    await page.goForward();
    expect(page.url()).not.toContain(token);
    await poll(() => value().textContent()).toBe('"Hello"');
  });

  it('a reload still evaluates: the token is kept for the tab', async () => {
    await setText(GREETING);
    await poll(() => value().textContent()).toBe('"Hello there"');
    const calls = sent.length;
    await page.reload();
    // The text comes back from the fragment, and its value from an API call made with the kept token.
    await poll(() => value().textContent()).toBe('"Hello there"');
    expect(sent.length).toBeGreaterThan(calls);
    expect(new Set(sent)).toEqual(new Set([`token ${new URL(url).searchParams.get('token')!}`]));
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  });

  it('another tab opened at the address without the token has no access', async () => {
    const other = await context.newPage();
    await other.goto(new URL(url).origin + '/');
    await poll(() => other.locator('#value').getAttribute('data-state')).toBe('failed');
    expect(await other.locator('#value').textContent()).toContain('PLAY_TOKEN_INVALID');
    await other.close();
  });
});
