// The worker pool (src/refresh/pool.ts, worker.ts): threads scan byte ranges of accounts.json
// for the pre-pass, then read and evaluate the batches whose plans they are sent, returning
// NDJSON bytes; the result is what this thread gives for the same records.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createBatchEvaluator } from '../../src/refresh/evaluator.js';
import { encodeResults, NdjsonEncoder } from '../../src/refresh/ndjson-writer.js';
import { RefreshPool } from '../../src/refresh/pool.js';
import { resolveProfile } from '../../src/refresh/profile-source.js';
import { TenantIndex } from '../../src/refresh/fixture-stream/identity-index.js';
import { TenantStream } from '../../src/refresh/fixture-stream/stream.js';
import { cleanUp, FIXTURES, generatedTenant, NOW } from './tenants.js';

afterAll(cleanUp);

describe('RefreshPool', () => {
  it('scans accounts.json on its threads for the pre-pass, then evaluates plans there as this thread evaluates records', async () => {
    const fixtures = generatedTenant(300);
    const config = { fixtures, profile: resolveProfile(fixtures, join(FIXTURES, 'identity-profiles', 'default.json')), now: NOW };
    const pool = new RefreshPool(2, randomUUID(), config);
    const walkedHere = vi.spyOn(TenantIndex, 'sequential');
    pool.prepare();
    const stream = await TenantStream.scanned(fixtures, null, 2, (ranges, port) => pool.scanAccounts(ranges, port), { parallelFrom: 0, minRange: 4096 });
    expect(walkedHere).not.toHaveBeenCalled();
    walkedHere.mockRestore();
    const sequential = new TenantStream(fixtures);
    expect(stream.scan).toEqual(sequential.scan);

    const chunks: Buffer[] = [];
    let identities = 0;
    for await (const result of pool.run(stream.plans(37), stream.files, 'ndjson')) {
      chunks.push(Buffer.from(result.bytes!));
      identities += result.counts.identities;
    }
    const local = createBatchEvaluator(config).run(sequential.records());
    expect(identities).toBe(300);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(Buffer.from(encodeResults(new NdjsonEncoder(), local.results)).toString('utf8'));
  });

  it('builds a run from the config its batches carry on a thread that was not prepared, and gives the same lines', async () => {
    const fixtures = generatedTenant(40);
    const config = { fixtures, profile: resolveProfile(fixtures, join(FIXTURES, 'identity-profiles', 'default.json')), now: NOW };
    const pool = new RefreshPool(2, randomUUID(), config);
    const stream = new TenantStream(fixtures);
    const chunks: Buffer[] = [];
    for await (const result of pool.run(stream.plans(7), stream.files, 'ndjson')) chunks.push(Buffer.from(result.bytes!));
    const local = createBatchEvaluator(config).run(stream.records());
    expect(Buffer.concat(chunks).toString('utf8')).toBe(Buffer.from(encodeResults(new NdjsonEncoder(), local.results)).toString('utf8'));
  });
});
