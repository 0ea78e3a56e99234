// The parallel half of the pre-pass (src/refresh/account-runs.ts): accounts.json cut at line
// breaks into ranges scanned separately, joined back into runs of accounts per identity, and
// given up for the sequential pass whenever a cut cannot be trusted.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { MessagePort } from 'node:worker_threads';
import { cutAtLines, RunsCursor, scanAccountRuns, scanRange, sharedRanges, takeRange, type SharedRanges } from '../../src/refresh/fixture-stream/account-runs.js';
import { TenantIndex } from '../../src/refresh/fixture-stream/identity-index.js';
import { TenantStream } from '../../src/refresh/fixture-stream/stream.js';
import { cleanUp, handTenant, hrAccount, tempDir } from './tenants.js';

afterAll(cleanUp);

function file(text: string): string {
  const path = join(tempDir(), 'accounts.json');
  writeFileSync(path, text);
  return path;
}

const oneLine = (items: unknown[]) => `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]\n`;
const accounts = [hrAccount('a', { n: 1 }), hrAccount('a', { n: 2 }), hrAccount('b', { n: 3 }), hrAccount('c', { n: 4 }), hrAccount('c', { n: 5 })];

/** What a worker thread does (worker.ts scanAccounts), on this thread, on its next turn. */
function inProcess(ranges: SharedRanges, port: MessagePort): Promise<number> {
  return new Promise((resolve) =>
    setImmediate(() => {
      let n = 0;
      for (let i = takeRange(ranges); i !== -1; i = takeRange(ranges), n++) port.postMessage({ index: i, runs: scanRange(ranges, i) });
      port.close();
      resolve(n);
    }),
  );
}

/** Ranges cut just after each line break of a file at the given byte positions. */
function cut(path: string, positions: number[]): SharedRanges {
  const size = readFileSync(path).length;
  return sharedRanges(path, [0, ...positions], size);
}

/** The heads a cursor goes through, waiting where it must. */
async function heads(cursor: RunsCursor): Promise<string[]> {
  const out: string[] = [];
  for (;;) {
    while (cursor.blocked) await cursor.more();
    if (cursor.failed) throw new Error('failed');
    if (cursor.head === null) return out;
    out.push(cursor.head);
    cursor.advance();
  }
}

/** The cuts just after each line break of the text (every place a scan may start). */
function lineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(Buffer.byteLength(text.slice(0, i + 1)));
  return starts;
}

describe('scanAccountRuns', () => {
  it('collapses consecutive accounts of one identity into a run ending after its last account', () => {
    const text = oneLine(accounts);
    const runs = scanAccountRuns(file(text), 0, Buffer.byteLength(text));
    expect(runs).toMatchObject({ ok: true, from: 'start', to: 'done', count: 5, first: 2 });
    expect(Buffer.from(runs.ids).toString()).toBe('abc');
    expect([...runs.idEnds]).toEqual([1, 2, 3]);
    const ends = [...runs.ends];
    expect(text.slice(0, ends[0])).toMatch(/"n":2\}\}$/);
    expect(text.slice(0, ends[2])).toMatch(/"n":5\}\}$/);
  });

  it('starts a range after a comma or after an element, whichever the bytes before the cut say', () => {
    const commaLast = oneLine(accounts);
    const cut = lineStarts(commaLast)[2]!;
    expect(scanAccountRuns(file(commaLast), cut, Buffer.byteLength(commaLast))).toMatchObject({ ok: true, from: 'before-element', to: 'done' });
    const commaFirst = `[\n${accounts.map((a) => JSON.stringify(a)).join('\n,')}\n]`;
    const cutFirst = lineStarts(commaFirst)[2]!;
    expect(scanAccountRuns(file(commaFirst), cutFirst, Buffer.byteLength(commaFirst))).toMatchObject({ ok: true, from: 'after-element', to: 'done' });
    expect(scanAccountRuns(file(commaFirst), 0, cutFirst)).toMatchObject({ ok: true, from: 'start', to: 'after-element' });
  });

  it('gives up on a range cut inside an element (pretty-printed JSON), and on one it cannot read as the sequential pass would', () => {
    const pretty = JSON.stringify(accounts, null, 2);
    const path = file(pretty);
    const inside = lineStarts(pretty).find((c) => pretty.slice(c).startsWith('    "identityId"'))!;
    expect(scanAccountRuns(path, 0, inside).ok).toBe(false);
    expect(scanAccountRuns(file(oneLine([...accounts, { id: 'x', sourceId: 'src-hr' }])), 0, 10_000).ok).toBe(false);
  });
});

describe('cutAtLines', () => {
  it('cuts just after the first line break at or after each boundary, and not where none is near', () => {
    const text = oneLine(accounts);
    const path = file(text);
    const cuts = cutAtLines(path, [40, 200, 1_000_000]);
    expect(cuts[0]).toBe(0);
    for (const c of cuts.slice(1)) expect(text[c - 1]).toBe('\n');
    expect(cutAtLines(file(JSON.stringify(accounts)), [40, 1000])).toEqual([0]);
  });
});

describe('RunsCursor', () => {
  it('goes through the runs of every range in order, whichever thread scans which and in what order', async () => {
    const text = oneLine(accounts);
    const path = file(text);
    const ranges = cut(path, [lineStarts(text)[2]!, lineStarts(text)[4]!]);
    const cursor = new RunsCursor(ranges);
    expect(takeRange(ranges)).toBe(0);
    cursor.settle(0, scanRange(ranges, 0));
    // Another thread takes the second range and is slow: waiting for it, this thread scans the third.
    expect(takeRange(ranges)).toBe(1);
    setTimeout(() => cursor.settle(1, scanRange(ranges, 1)), 10);
    // c's accounts are split over the last two ranges: a run in each, which take() joins.
    expect(await heads(cursor)).toEqual(['a', 'b', 'c', 'c']);
    expect(takeRange(ranges)).toBe(-1);
    expect(cursor.count).toBe(5);
  });

  it('frees a range\'s runs as soon as the walk has passed it, and no sooner', async () => {
    const text = oneLine(accounts);
    const path = file(text);
    const ranges = cut(path, [lineStarts(text)[3]!]);
    const first = scanRange(ranges, 0);
    const second = scanRange(ranges, 1);
    const cursor = new RunsCursor(ranges);
    cursor.settle(0, first);
    cursor.settle(1, second);
    await cursor.more();
    expect(cursor.head).toBe('a');
    expect(first.ids.byteLength).toBe(2);
    cursor.take('a');
    cursor.take('b');
    // On c's run, in the second range: the first range's buffers are released (detached).
    expect(cursor.head).toBe('c');
    expect([first.ids.byteLength, first.idEnds.length, first.ends.length]).toEqual([0, 0, 0]);
    expect(second.ids.byteLength).toBe(1);
    cursor.take('c');
    expect(cursor.head).toBeNull();
    expect(cursor.lastEnd).toBe(text.lastIndexOf('}') + 1);
  });

  it('fails when a range does not start where the previous one ended, could not be scanned, or a scanning thread failed', async () => {
    const text = oneLine(accounts);
    const path = file(text);
    const two = () => cut(path, [lineStarts(text)[3]!]);
    const swapped = new RunsCursor(two());
    swapped.settle(0, scanRange(two(), 1));
    swapped.settle(1, scanRange(two(), 0));
    await expect(heads(swapped)).rejects.toThrow('failed');
    const missing = new RunsCursor(two());
    missing.settle(0, scanRange(two(), 0));
    missing.settle(1, null);
    await expect(heads(missing)).rejects.toThrow('failed');
    const ranges = two();
    const abandoned = new RunsCursor(ranges);
    takeRange(ranges);
    takeRange(ranges);
    abandoned.settle(0, scanRange(ranges, 0));
    setTimeout(() => abandoned.abandon(), 10);
    await expect(heads(abandoned)).rejects.toThrow('failed');
  });
});

describe('TenantStream.scanned', () => {
  const identities = [
    { id: 'a', name: 'ann', attributes: {}, managerId: 'c' },
    { id: 'b', name: 'bob', attributes: {}, managerId: null },
    { id: 'c', name: 'cat', attributes: {}, managerId: 'b' },
  ];
  const small = { parallelFrom: 0, minRange: 64 };

  async function both(dir: string, threads: number) {
    const sequential = new TenantStream(dir);
    const parallel = await TenantStream.scanned(dir, null, threads, inProcess, small);
    return { sequential: { scan: sequential.scan, records: [...sequential.records()] }, parallel: { scan: parallel.scan, records: [...parallel.records()] } };
  }

  it('gives what the sequential pre-pass gives, whatever the layout and the number of threads (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ who: fc.constantFrom('a', 'b', 'c', 'ghost'), n: fc.integer({ min: 0, max: 99 }), pad: fc.string({ maxLength: 40 }) }), { maxLength: 14 }),
        fc.boolean(),
        fc.constantFrom('lines', 'pretty', 'commas first'),
        fc.integer({ min: 1, max: 4 }),
        async (drawn, grouped, layout, threads) => {
          const list = drawn.map(({ who, n, pad }) => hrAccount(who, { n, pad }));
          if (grouped) list.sort((x, y) => x.identityId!.localeCompare(y.identityId!));
          const dir = handTenant({ identities });
          const text =
            layout === 'pretty' ? JSON.stringify(list, null, 2) : layout === 'lines' ? oneLine(list) : `[\n${list.map((i) => JSON.stringify(i)).join('\n,')}\n]`;
          writeFileSync(join(dir, 'accounts.json'), text);
          const { sequential, parallel } = await both(dir, threads);
          expect(parallel).toEqual(sequential);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('joins the ranges without reading accounts.json again when every cut holds', async () => {
    const dir = handTenant({ identities, accounts });
    const sequential = vi.spyOn(TenantIndex, 'sequential');
    try {
      const stream = await TenantStream.scanned(dir, null, 2, inProcess, small);
      expect(sequential).not.toHaveBeenCalled();
      expect(stream.scan).toEqual(new TenantStream(dir).scan);
    } finally {
      sequential.mockRestore();
    }
  });

  it('reports a malformed accounts.json exactly as the sequential pre-pass does', async () => {
    const dir = handTenant({ identities, accounts });
    writeFileSync(join(dir, 'accounts.json'), oneLine(accounts).replace('"n":4', '"n":4}}, {"x":'));
    let expected: unknown;
    try {
      new TenantStream(dir);
    } catch (error) {
      expected = error;
    }
    expect(expected).toMatchObject({ code: 'CLI_FIXTURES' });
    await expect(TenantStream.scanned(dir, null, 2, inProcess, small)).rejects.toEqual(expected);
  });

  it('reads a small accounts.json on this thread only', async () => {
    let calls = 0;
    const dir = handTenant({ identities, accounts });
    await TenantStream.scanned(dir, null, 2, (ranges, port) => {
      calls++;
      return inProcess(ranges, port);
    });
    expect(calls).toBe(0);
  });
});
