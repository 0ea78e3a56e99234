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

  it('shows no ETA while the rate is still warming up, and a close one once it is stable', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 120, 0);
    // A 19-second job whose first seconds run at a third of its speed (threads loading, JIT): the
    // rate of its first window alone would say about a minute when 4% is done.
    const total = 190_000;
    let done = 0;
    let at = 0;
    const step = (ms: number, rate: number) => {
      at += ms;
      done += (rate * ms) / 1000;
      bar.update({ done, total, elapsedMs: at });
    };
    for (let i = 0; i < 6; i++) step(250, 3_000 + i * 1_500);
    expect(writes.every((w) => w.includes('ETA --'))).toBe(true);
    for (let i = 0; i < 8; i++) step(250, 10_000);
    const eta = Number(/ETA (\d+)s/.exec(writes.at(-1)!)?.[1]);
    const left = (total - done) / 10_000;
    expect(Math.abs(eta - left)).toBeLessThanOrEqual(left * 0.2 + 1);
  });

  it('shows an ETA once two consecutive windows of half a second agree within 20%', () => {
    const writes: string[] = [];
    const bar = createProgressBar((t) => writes.push(t), 120, 0);
    bar.update({ done: 1_000, total: 100_000, elapsedMs: 0 });
    bar.update({ done: 6_000, total: 100_000, elapsedMs: 500 }); // 10,000/s: the first window
    expect(writes.at(-1)).toContain('ETA --');
    bar.update({ done: 10_500, total: 100_000, elapsedMs: 1_000 }); // 9,000/s: within 20%
    expect(writes.at(-1)).toContain('ETA 10s');
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
