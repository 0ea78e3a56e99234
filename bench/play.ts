// The playground's figures on the bundled tenant: from the API request leaving the page to the
// value rendered (p50, p95), in Chromium, for edits that change the value; the debounce before
// the request (DEBOUNCE_MS) is stated apart, not measured in. And the page's weight: each asset
// gzipped, as a browser fetches it. The page marks the request (`play:request`) and measures to
// the value drawn (`play:value-rendered`, the Performance API); this script reads those entries.
// Run with `npm run bench:play` after `npm run build`; the figures are only meaningful on a quiet
// machine (print the load with them).

import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { PlayHost } from '../src/play/host.js';
import { ASSETS_DIR, startPlayServer } from '../src/play/server.js';

const RUNS = Number(process.argv[2] ?? 100);
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && p !== '' && existsSync(p));
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const DEBOUNCE = /DEBOUNCE_MS = (\d+)/.exec(readFileSync(join(import.meta.dirname, '..', 'src/play/page/main.ts'), 'utf8'))![1];

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;

if (!existsSync(join(ASSETS_DIR, 'app.js'))) throw new Error(`no built page in ${ASSETS_DIR}: run npm run build first`);
if (CHROMIUM === undefined) throw new Error('no chromium: set CHROMIUM_PATH or apt-get install chromium');

const weights = ['index.html', 'app.js', 'app.css'].map((file) => {
  const bytes = readFileSync(join(ASSETS_DIR, file));
  return { file, bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
});

const server = await startPlayServer(await PlayHost.open(FIXTURES));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.locator('#value[data-state="value"]').waitFor();
  // A transform that reads an account through accountAttribute, its value changing with each edit.
  const text = (i: number) => JSON.stringify({ name: 'Bench', type: 'concat', attributes: { values: [{ type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } }, ` ${i}`] } }, null, 2);
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 10; i++) {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(text(i));
    await page.locator('#value', { hasText: ` ${i}"` }).waitFor();
    const measured = await page.evaluate<number>(`performance.getEntriesByName('play:value-rendered').pop().duration`);
    if (i >= 10) samples.push(measured);
  }
  console.log(`playground, bundled tenant (${RUNS} edits, Chromium, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
  console.log(`  API request → value rendered: p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (goal ≤ 100 ms p95); debounce before the request: ${DEBOUNCE} ms`);
  for (const w of weights) console.log(`  ${w.file}: ${(w.bytes / 1024).toFixed(1)} KiB, ${(w.gzipped / 1024).toFixed(1)} KiB gzipped`);
  console.log(`  page weight: ${(weights.reduce((n, w) => n + w.gzipped, 0) / 1024).toFixed(1)} KiB gzipped`);
} finally {
  await browser.close();
  await server.close();
}
