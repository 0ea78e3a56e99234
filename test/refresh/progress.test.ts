// The progress bar (src/refresh/progress.ts): rate and ETA, redrawn at most every interval,
// erased at the end.

import { describe, expect, it } from 'vitest';
import { createProgressBar, renderProgress } from '../../src/refresh/progress.js';

describe('renderProgress', () => {
  it.each([
    [{ done: 0, total: 1000, elapsedMs: 0 }, '[........................................]   0% 0/1,000 0/s ETA --'],
    [{ done: 500, total: 1000, elapsedMs: 1000 }, '[####################....................]  50% 500/1,000 500/s ETA 1s'],
    [{ done: 1000, total: 1000, elapsedMs: 2000 }, '[########################################] 100% 1,000/1,000 500/s ETA 0s'],
    [{ done: 10_000, total: 1_000_000, elapsedMs: 1000 }, '[........................................]   1% 10,000/1,000,000 10,000/s ETA 1m39s'],
    [{ done: 0, total: 0, elapsedMs: 5 }, '[########################################] 100% 0/0 0/s ETA --'],
  ])('renders %j', (progress, line) => {
    expect(renderProgress(progress, 120)).toBe(line);
  });

  it('fits a narrow terminal (the bar shrinks to 10 cells)', () => {
    const line = renderProgress({ done: 1, total: 2, elapsedMs: 1000 }, 20);
    expect(line.startsWith('[#####.....]')).toBe(true);
  });
});

describe('createProgressBar', () => {
  it('redraws at most once per interval, always draws completion, and erases itself at the end', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 80, 100);
    bar.update({ done: 1, total: 10, elapsedMs: 0 });
    bar.update({ done: 2, total: 10, elapsedMs: 50 });
    bar.update({ done: 3, total: 10, elapsedMs: 150 });
    bar.update({ done: 10, total: 10, elapsedMs: 160 });
    bar.finish();
    expect(writes.length).toBe(4);
    expect(writes[0]).toMatch(/^\r\[.*\] +10% 1\/10/);
    expect(writes[1]).toMatch(/ 30% 3\/10/);
    expect(writes[2]).toMatch(/100% 10\/10/);
    expect(writes[3]).toBe('\r\x1b[K');
  });

  it('shows no ETA until a second has passed since the first batch and a few percent are done', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 120, 0);
    // A 7-second job whose first batch came after a 2-second pre-pass: the average rate at the
    // first batch (256 in 2 s) would say about 19 minutes.
    const total = 150_000;
    bar.update({ done: 256, total, elapsedMs: 2000 });
    bar.update({ done: 3_000, total, elapsedMs: 2150 });
    bar.update({ done: 10_000, total, elapsedMs: 2500 });
    expect(writes.every((w) => w.includes('ETA --'))).toBe(true);
    bar.update({ done: 30_000, total, elapsedMs: 3100 });
    const eta = Number(/ETA (\d+)s/.exec(writes.at(-1)!)?.[1]);
    expect(eta).toBeGreaterThanOrEqual(3);
    expect(eta).toBeLessThanOrEqual(5);
  });

  it('smooths the ETA: one slow batch does not make it jump', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 120, 0);
    const total = 100_000;
    for (let i = 1; i <= 20; i++) bar.update({ done: i * 2_000, total, elapsedMs: i * 200 });
    const before = Number(/ETA (\d+)s/.exec(writes.at(-1)!)?.[1]);
    bar.update({ done: 42_000, total, elapsedMs: 5_000 }); // a one-second stall
    const after = Number(/ETA (\d+)s/.exec(writes.at(-1)!)?.[1]);
    expect(before).toBe(6);
    expect(after).toBeLessThan(before * 2);
  });

  it('writes nothing when it never drew', () => {
    const writes: string[] = [];
    createProgressBar((t) => writes.push(t)).finish();
    expect(writes).toEqual([]);
  });
});
