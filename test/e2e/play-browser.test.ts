// The playground as a person uses it: the installed package's `identity-transforms play` on the
// bundled tenant, its page in a real Chromium. Typing gives a value, breaking the transform
// underlines the error with its code, another identity gives another value, a node of the
// explanation selects its JSON, the Impact tab's counts are `impact`'s, its Stop ends the
// server's run and a run past its budget shows its code, it all works from the
// keyboard, axe-core finds no violation, and the page asks nothing of any host but the loopback
// server that served it. The API refuses calls without the token or from another Host or Origin.
//
// Debian's chromium (which .ci/run installs) is driven by playwright-core, as the login test does;
// set CHROMIUM_PATH for another binary. Screenshots go to test-output/play/ (git-ignored).

import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, ROOT, runCommand, type Installed } from './install.js';
import { CHROMIUM, CHROMIUM_FLAGS, startPlay } from './play-process.js';
import { HEAVY, impactChildren, pastedProfile, readProc } from '../play/impact-children.js';

const OUTPUT = join(ROOT, 'test-output', 'play');

/** Wait for what the page shows, as long as a loaded machine may take to answer. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 100 });

const GREETING = '{\n  "name": "Greeting",\n  "type": "static",\n  "attributes": { "value": "Hello there" }\n}\n';
const FIRST_NAME = '{\n  "name": "First name",\n  "type": "upper",\n  "attributes": {\n    "input": { "type": "accountAttribute", "attributes": { "sourceName": "Workday", "attributeName": "FIRST_NAME" } }\n  }\n}\n';
/** The text selected in the page (the editor's selection, once it has the focus). */
const SELECTION = "String(document.getSelection())";
const UPPER_DEPARTMENT = '{\n  "name": "Clean Department",\n  "type": "upper",\n  "attributes": {}\n}\n';

if (CHROMIUM === undefined) {
  console.warn('NOTICE: the playground browser test is skipped: no chromium at $CHROMIUM_PATH, /usr/bin/chromium or /usr/bin/chromium-browser (install it with `apt-get install -y chromium`).');
}

// CI installs chromium (.ci/run): there, a missing browser is a failure, not a skipped page.
it.skipIf(!process.env.CI)('CI has a chromium to drive', () => {
  expect(CHROMIUM).toBeDefined();
});

describe.skipIf(CHROMIUM === undefined)('the playground in Chromium, from the installed package', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'it-play-'));
  const fixtures = join(work, 'fixtures');
  let pkg: Installed;
  let play: ChildProcess;
  let url: string;
  let origin: string;
  let token: string;
  let browser: Browser;
  let page: Page;
  /** Every URL any page of the test requested, and what the browser reported as a policy violation. */
  const requested: string[] = [];
  const refused: string[] = [];

  async function open(address: string): Promise<Page> {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    p.setDefaultTimeout(15_000);
    p.on('request', (r) => requested.push(r.url()));
    p.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused/.test(m.text())) refused.push(m.text());
    });
    await p.goto(address);
    return p;
  }

  async function screenshot(name: string): Promise<void> {
    const file = join(OUTPUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot: ${file}`);
  }

  /** Replace the editor's text, as a paste does. */
  async function setText(text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(text);
  }

  const value = () => page.locator('#value');

  beforeAll(async () => {
    pkg = await installed();
    cpSync(join(pkg.consumer, 'node_modules/identity-transforms/fixtures'), fixtures, { recursive: true });
    ({ play, url } = await startPlay(join(pkg.consumer, 'node_modules/.bin/identity-transforms'), work, pkg.env));
    origin = new URL(url).origin;
    token = new URL(url).searchParams.get('token')!;
    mkdirSync(OUTPUT, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM!, headless: true, args: CHROMIUM_FLAGS });
    page = await open(url);
  }, 1_800_000);

  afterAll(async () => {
    await browser?.close();
    play?.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the value of the starting transform for the first identity, with nothing refused by its policy', async () => {
    await poll(() => value().textContent()).toBe('"Hello"');
    expect(await page.locator('#value-identity').textContent()).toBe('fatima.schroder');
    await screenshot('start');
  });

  it('type a transform: the value appears', async () => {
    await setText(GREETING);
    await poll(() => value().textContent()).toBe('"Hello there"');
    await page.locator('.cm-content').press('End');
    expect(await page.locator('#problems').textContent()).toContain('No problems');
  });

  it('break it: the error is underlined in the editor with its code, and listed', async () => {
    await setText(GREETING.replace('"static"', '"statik"'));
    const underline = page.locator('.cm-lintRange-error.code-SCHEMA_ENUM');
    await poll(() => underline.count()).toBe(1);
    expect(await underline.textContent()).toBe('"statik"');
    expect(await page.locator('#problems li[data-code="SCHEMA_ENUM"]').textContent()).toContain('did you mean "static"');
    await screenshot('error-underlined');
  });

  it('malformed JSON mid-typing: the syntax error is shown and the value waits for the text to parse', async () => {
    await setText(GREETING.slice(0, 40));
    await poll(() => page.locator('#problems li[data-code="VALIDATE_JSON_SYNTAX"]').count()).toBe(1);
    expect(await value().getAttribute('data-state')).toBe('none');
    await page.keyboard.insertText(GREETING.slice(40));
    await poll(() => value().textContent()).toBe('"Hello there"');
  });

  it('pick another identity: the value changes', async () => {
    await setText(FIRST_NAME);
    await poll(() => value().textContent()).toBe('"FATIMA"');
    await page.getByLabel('Search identities by name').fill('noah.and');
    await poll(() => page.locator('#identity option').allTextContents()).toEqual(['noah.andersen']);
    await page.locator('#identity').selectOption({ label: 'noah.andersen' });
    await poll(() => value().textContent()).toBe('"NOAH"');
    expect(await page.locator('#value-identity').textContent()).toBe('noah.andersen');
  });

  it('click a node of the explanation: its JSON is selected in the editor', async () => {
    const node = page.locator('#trace button.node', { hasText: 'accountAttribute' });
    await poll(() => node.textContent()).toContain('"Noah"');
    // The accounts accountAttribute considered, in order, and the one it returned.
    expect(await page.locator('#trace').textContent()).toMatch(/accounts: .*"nativeIdentity": "100001".*returned: /s);
    await node.click();
    const selected = await page.evaluate<string>(SELECTION);
    expect(JSON.parse(selected)).toEqual({ type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } });
    expect(await node.getAttribute('aria-pressed')).toBe('true');
    await screenshot('explanation');
  });

  it('the Profile tab: every attribute of the profile for the identity', async () => {
    await page.getByRole('tab', { name: 'Profile' }).click();
    const rows = page.locator('#profile tbody tr');
    await poll(() => rows.count()).toBe(22);
    expect(await page.locator('#profile tbody tr', { hasText: 'firstname' }).textContent()).toContain('"Noah"');
    await screenshot('profile');
  });

  it('the Impact tab: the edited example against its file, with the counts `impact` reports', async () => {
    await page.getByLabel('Open an example').selectOption('transforms/clean-department.json');
    await poll(() => page.locator('.cm-content').textContent()).toContain('Clean Department');
    await setText(UPPER_DEPARTMENT);
    await page.getByRole('tab', { name: 'Impact' }).click();
    await page.getByRole('button', { name: 'Run impact' }).click();
    await expect.poll(() => page.locator('#impact-totals').count(), { timeout: 60_000 }).toBe(1);
    await screenshot('impact');

    const head = join(work, 'head');
    cpSync(fixtures, head, { recursive: true });
    writeFileSync(join(head, 'transforms/clean-department.json'), UPPER_DEPARTMENT);
    const cli = await runCommand(join(pkg.consumer, 'node_modules/.bin/identity-transforms'), ['impact', '--base', 'fixtures', '--head', 'head', '--fixtures', 'fixtures', '--format', 'json', '--fail-on', 'none'], work, pkg.env);
    expect(cli.code, cli.stderr).toBe(0);
    const report = JSON.parse(cli.stdout) as { profiles: { attributes: Record<string, unknown>[] }[] };
    const attributes = report.profiles.flatMap((p) => p.attributes);
    expect(attributes.length).toBeGreaterThan(0);
    for (const a of attributes) {
      const row = page.locator(`#impact tr[data-attribute="${String(a.attribute)}"]`);
      for (const column of ['identities', 'unchanged', 'changed', 'becameNull', 'stoppedBeingNull', 'newErrors', 'errorsFixed', 'errorsChanged']) {
        expect(await row.locator(`td[data-column="${column}"]`).textContent(), `${String(a.attribute)} ${column}`).toBe(String(a[column]));
      }
    }
  });

  it('a template past the budget: the coded limit is shown, and the server answers the next edit', async () => {
    await page.getByRole('tab', { name: 'Explanation' }).click();
    await setText('{"name": "Loop", "type": "static", "attributes": {"value": "#set($s = \\"x\\")#foreach($i in [1..40])#set($s = \\"$s$s\\")#end$s"}}');
    await poll(() => value().textContent()).toContain('EVAL_LIMIT_STRING');
    await poll(() => page.locator('.cm-lintRange-error.code-EVAL_LIMIT_STRING').count()).toBe(1);
    await setText(GREETING);
    await poll(() => value().textContent()).toBe('"Hello there"');
  });

  it('a 1 MB paste: the request is refused with its code, and the next edit is answered', async () => {
    await setText(`{"name": "Big", "type": "static", "attributes": {"value": "${'x'.repeat(1024 * 1024)}"}}`);
    await poll(() => page.locator('#problems li[data-code="PLAY_REQUEST_TOO_LARGE"]').count()).toBe(1);
    await setText(GREETING);
    await poll(() => value().textContent()).toBe('"Hello there"');
  });

  it('shares through the URL fragment: another page opened with it has the same text and identity', async () => {
    await poll(() => page.evaluate<string>('location.hash')).toMatch(/^#s=/);
    const hash = await page.evaluate<string>('location.hash');
    const other = await open(`${url}${hash}`);
    try {
      await poll(() => other.locator('.cm-content').textContent()).toContain('Hello there');
      await poll(() => other.locator('#value-identity').textContent()).toBe('noah.andersen');
      expect(requested.some((r) => r.includes('#'))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('works from the keyboard alone: example, editor, identity, tabs and explanation', async () => {
    const keys = await open(url);
    const focused = () => keys.evaluate<string>("document.activeElement ? document.activeElement.id || document.activeElement.className : ''");
    try {
      await poll(() => keys.locator('#value').textContent()).toBe('"Hello"');
      await keys.keyboard.press('Tab'); // the example picker
      await keys.keyboard.press('Tab'); // the link button
      await keys.keyboard.press('Tab'); // the editor
      expect(await focused()).toContain('cm-content');
      await keys.keyboard.press('ControlOrMeta+End');
      await keys.keyboard.press('ArrowUp');
      await keys.keyboard.press('ArrowUp');
      await keys.keyboard.press('End');
      for (let i = 0; i < 3; i++) await keys.keyboard.press('ArrowLeft');
      await keys.keyboard.type(' you');
      await poll(() => keys.locator('#value').textContent()).toBe('"Hello you"');
      await keys.keyboard.press('Escape');
      await keys.keyboard.press('Tab'); // the identity search
      expect(await focused()).toBe('identity-search');
      await keys.keyboard.type('lewis');
      await poll(() => keys.locator('#identity option').first().textContent()).toMatch(/^lewis/);
      const first = await keys.locator('#identity option').first().textContent();
      await keys.keyboard.press('Tab'); // the identity list
      expect(await focused()).toBe('identity');
      await keys.keyboard.press('ArrowDown');
      await poll(() => keys.locator('#value-identity').textContent()).toBe(first);
      await keys.keyboard.press('Tab'); // the selected tab
      expect(await focused()).toBe('tab-explain');
      await keys.keyboard.press('ArrowRight');
      expect(await focused()).toBe('tab-profile');
      expect(await keys.locator('#panel-profile').isVisible()).toBe(true);
      await keys.keyboard.press('ArrowLeft');
      await keys.keyboard.press('Tab'); // the first node of the explanation
      expect(await keys.evaluate<string>("document.activeElement ? document.activeElement.textContent : ''")).toContain('static');
      await keys.keyboard.press('Enter');
      expect(await focused()).toContain('cm-content');
      expect(await keys.evaluate<string>(SELECTION)).toContain('"Hello you"');
    } finally {
      await keys.close();
    }
  });

  it('has no accessibility violation axe-core can find', async () => {
    await page.getByRole('tab', { name: 'Profile' }).click();
    await poll(() => page.locator('#profile tbody tr').count()).toBe(22);
    const violations = async () => (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(await violations()).toEqual([]);
    // The Impact tab, with the report of the earlier run drawn.
    await page.getByRole('tab', { name: 'Impact' }).click();
    expect(await page.locator('#impact-totals').count()).toBe(1);
    expect(await violations()).toEqual([]);
  });

  it('asked nothing of any host but the loopback server that served it, and ran under its policy', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((r) => !r.startsWith(`${origin}/`))).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('the Impact tab\'s Stop ends the server\'s run; a run past its budget shows PLAY_IMPACT_BUDGET; a run ends with its play command', async () => {
    const bin = join(pkg.consumer, 'node_modules/.bin/identity-transforms');
    /** A tab of `address` with a pasted profile of seconds of work (each identity to its iteration limit), on the Impact tab. */
    const pasted = async (address: string): Promise<Page> => {
      const tab = await open(address);
      await tab.getByLabel('Open an example').selectOption('identity-profiles/default.json');
      await poll(() => tab.locator('.cm-content').textContent()).toContain('identityAttributeConfig');
      const slow = Array.from({ length: 30 }, (_, k) => ({ identityAttributeName: `slow${k}`, transformDefinition: HEAVY }));
      await tab.locator('.cm-content').click();
      await tab.keyboard.press('ControlOrMeta+A');
      await tab.keyboard.insertText(pastedProfile(readFileSync(join(fixtures, 'identity-profiles/default.json'), 'utf8'), slow));
      await tab.getByRole('tab', { name: 'Impact' }).click();
      return tab;
    };
    // A play whose impact runs have 5 s: the run outlasts the clicks below.
    const budgeted = await startPlay(bin, work, pkg.env, ['--impact-time', '5']);
    // A play whose runs have 1 s, less than that run takes on any machine: its budget ends it.
    const short = await startPlay(bin, work, pkg.env, ['--impact-time', '1']);
    const tab = await pasted(budgeted.url);
    const shortTab = await pasted(short.url);
    try {
      await tab.getByRole('button', { name: 'Run impact' }).click();
      await poll(() => impactChildren(budgeted.play.pid).length).toBe(1);
      await tab.getByRole('button', { name: 'Stop' }).click();
      await poll(() => tab.locator('#impact').textContent()).toBe('Stopped.');
      await poll(() => impactChildren(budgeted.play.pid)).toEqual([]);
      expect(await tab.getByRole('button', { name: 'Stop' }).isHidden()).toBe(true);

      await shortTab.getByRole('button', { name: 'Run impact' }).click();
      await poll(() => shortTab.locator('#impact .code').textContent()).toBe('PLAY_IMPACT_BUDGET');
      expect(await shortTab.locator('#impact').textContent()).toContain('took more than its 1 s');
      expect(impactChildren(short.play.pid)).toEqual([]);

      // The play command killed in the middle of a run: its run ends with it.
      await tab.getByRole('button', { name: 'Run impact' }).click();
      await poll(() => impactChildren(budgeted.play.pid).length).toBe(1);
      const [run] = impactChildren(budgeted.play.pid);
      budgeted.play.kill('SIGKILL');
      await poll(() => /^State:\s+[RS]/m.test(readProc(run!))).toBe(false);
    } finally {
      await tab.context().close();
      await shortTab.context().close();
      budgeted.play.kill('SIGTERM');
      short.play.kill('SIGTERM');
    }
  });

  describe('its API, called by someone else', () => {
    const call = (path: string, headers: Record<string, string>, method = 'GET') =>
      new Promise<{ status: number; code: string }>((resolve, reject) => {
        const target = new URL(path, origin);
        const req = request({ host: '127.0.0.1', port: target.port, path: target.pathname, method, headers: { host: target.host, ...headers } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode!, code: (JSON.parse(body) as { error?: { code: string } }).error?.code ?? '' }));
        });
        req.on('error', reject);
        req.end(method === 'POST' ? JSON.stringify({ document: '{}' }) : undefined);
      });

    it('without the token: 401 PLAY_TOKEN_INVALID', async () => {
      expect(await call('/api/state', {})).toEqual({ status: 401, code: 'PLAY_TOKEN_INVALID' });
    });

    it('with a foreign Host (DNS rebinding): 403 PLAY_HOST_REFUSED', async () => {
      expect(await call('/api/state', { authorization: `token ${token}`, host: 'rebound.example:80' })).toEqual({ status: 403, code: 'PLAY_HOST_REFUSED' });
    });

    it('from a foreign Origin: 403 PLAY_ORIGIN_REFUSED', async () => {
      expect(await call('/api/analyze', { authorization: `token ${token}`, origin: 'https://evil.example', 'content-type': 'application/json' }, 'POST')).toEqual({ status: 403, code: 'PLAY_ORIGIN_REFUSED' });
    });

    it('from a page of another origin in the browser: refused, nothing evaluated', async () => {
      const other = await browser.newPage();
      try {
        await other.goto('about:blank');
        const outcome = await other.evaluate(
          async ({ target, t }) => {
            try {
              const r = await fetch(`${target}/api/analyze`, { method: 'POST', headers: { authorization: `token ${t}`, 'content-type': 'application/json' }, body: '{"document":"{}"}' });
              return `status ${r.status}`;
            } catch (error) {
              return `failed: ${(error as Error).name}`;
            }
          },
          { target: origin, t: token },
        );
        expect(outcome).toBe('failed: TypeError');
      } finally {
        await other.close();
      }
    });
  });
});
