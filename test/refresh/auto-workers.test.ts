import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { autoThreads, busyCores, estimateWork, freeCores } from '../../src/refresh/auto-workers.js';
import { RefreshRunner } from '../../src/refresh/runner.js';
import type { IdentityProfile } from '../../src/providers/types.js';
import { cleanUp, generatedTenant, handTenant, NOW, profile } from './tenants.js';

afterAll(cleanUp);

const bundled = (dir: string) => JSON.parse(readFileSync(join(dir, 'identity-profiles', 'default.json'), 'utf8')) as IdentityProfile;

describe('the work of a refresh, estimated from its files', () => {
  it('counts the identities of an identities.json that fits in the sample exactly, and a shard takes its share', () => {
    const dir = generatedTenant(300);
    const all = estimateWork(dir, bundled(dir), null);
    expect(all.identities).toBe(300);
    expect(estimateWork(dir, bundled(dir), { index: 1, count: 4 }).identities).toBe(75);
    expect(all.seconds).toBeGreaterThan(0);
  });

  it('extrapolates from the first 256 KiB of a larger identities.json, whatever its layout', () => {
    const dir = generatedTenant(3000);
    const file = join(dir, 'identities.json');
    expect(readFileSync(file).length).toBeGreaterThan(2 * (256 << 10));
    const estimate = estimateWork(dir, bundled(dir), null).identities;
    expect(estimate).toBeGreaterThan(2700);
    expect(estimate).toBeLessThan(3300);
    // Pretty-printed, with strings holding brackets and escaped quotes.
    const identities = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
    writeFileSync(file, JSON.stringify(identities.map((i) => ({ ...i, note: '}]"\\[{' })), null, 2));
    const pretty = estimateWork(dir, bundled(dir), null).identities;
    expect(pretty).toBeGreaterThan(2700);
    expect(pretty).toBeLessThan(3300);
  });

  it('grows with the profile: a profile of more attributes is more work over the same files', () => {
    const dir = generatedTenant(300);
    const one = profile('One', { a: { type: 'static', attributes: { value: 'x' } } });
    expect(estimateWork(dir, bundled(dir), null).seconds).toBeGreaterThan(estimateWork(dir, one as unknown as IdentityProfile, null).seconds);
  });

  it('is no identities for an empty or missing identities.json', () => {
    const dir = handTenant({ identities: [] });
    expect(estimateWork(dir, bundled(generatedTenant(1)), null).identities).toBe(0);
    writeFileSync(join(dir, 'identities.json'), '');
    expect(estimateWork(dir, bundled(generatedTenant(1)), null).identities).toBe(0);
  });
});

describe('--workers auto', () => {
  const work = (seconds: number) => ({ identities: Math.round(seconds * 20_000), seconds });

  it('evaluates on the calling thread on one core, whatever the work', () => {
    expect(autoThreads({ work: work(1000), cores: 1, typescript: false })).toBe(0);
  });

  it('evaluates on the calling thread while the work would not pay for a thread’s start', () => {
    expect(autoThreads({ work: work(0.01), cores: 2, typescript: false })).toBe(0);
    expect(autoThreads({ work: work(1), cores: 16, typescript: false })).toBe(0);
  });

  it('takes one thread per core for large work, fewer threads when each would get little of it', () => {
    expect(autoThreads({ work: work(100), cores: 2, typescript: false })).toBe(2);
    expect(autoThreads({ work: work(1000), cores: 64, typescript: false })).toBe(64);
    const some = autoThreads({ work: work(5), cores: 64, typescript: false });
    expect(some).toBeGreaterThanOrEqual(1);
    expect(some).toBeLessThan(64);
  });

  it('needs more work when the threads load TypeScript, which makes them slower to start', () => {
    const threshold = (typescript: boolean) => {
      let seconds = 0.1;
      while (autoThreads({ work: work(seconds), cores: 2, typescript }) === 0) seconds *= 1.1;
      return seconds;
    };
    expect(threshold(true)).toBeGreaterThan(threshold(false));
  });

  it('counts only the cores other processes leave idle, to the nearest core', () => {
    expect(freeCores(2, null)).toBe(2);
    expect(freeCores(2, 0.1)).toBe(2);
    expect(freeCores(2, 0.8)).toBe(1);
    expect(freeCores(2, 1.9)).toBe(0);
    expect(freeCores(2, 7)).toBe(0);
    expect(freeCores(16, 3.2)).toBe(13);
    // Another session keeping one core of two busy leaves no room for threads to pay.
    expect(autoThreads({ work: work(100), cores: freeCores(2, 1), typescript: false })).toBe(0);
  });

  it('measures the busy cores from /proc/stat where Linux has it', async () => {
    const busy = await busyCores(availableParallelism(), 50);
    if (!existsSync('/proc/stat')) return expect(busy).toBeNull();
    expect(busy).not.toBeNull();
    expect(busy!).toBeGreaterThanOrEqual(0);
    expect(busy!).toBeLessThanOrEqual(availableParallelism());
  });

  it('refreshes a small tenant on the calling thread (the summary says 0 workers)', async () => {
    const dir = generatedTenant(200);
    const run = new RefreshRunner({ fixtures: dir, workers: 'auto', now: NOW });
    let lines = 0;
    for await (const batch of run.batches()) lines += batch.text.split('\n').length - 1;
    expect(lines).toBe(200);
    expect(run.summary().workers).toBe(0);
  });
});
