// A run's evaluator config as its worker tasks carry it (src/refresh/shared-config.ts):
// serialised once into shared memory, posted by reference, read back equal to the config.

import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProfile } from '../../src/refresh/profile-source.js';
import { readConfig, shareConfig } from '../../src/refresh/shared-config.js';
import type { EvaluatorConfig } from '../../src/refresh/evaluator.js';
import { cleanUp, FIXTURES, generatedTenant, NOW } from './tenants.js';

afterAll(cleanUp);

describe('shareConfig', () => {
  const fixtures = generatedTenant(5);
  const config: EvaluatorConfig = {
    fixtures,
    profile: resolveProfile(fixtures, join(FIXTURES, 'identity-profiles', 'default.json')),
    now: NOW,
    cacheSizes: { regexes: 7 },
    limits: { maxDepth: 12 },
    transforms: [{ id: 't1', name: 'Upper é', type: 'upper', attributes: { input: 'ünïcode' } }],
    rulesModule: 'file:///rules/module.mjs',
    uniqueness: true,
  };

  it('reads back a config equal to the one shared, every field included', () => {
    expect(readConfig(shareConfig(config))).toEqual(config);
  });

  it('is posted by reference: a message carries the same shared memory, not a copy', () => {
    const shared = shareConfig(config);
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage({ runId: 'r', config: shared });
      const received = receiveMessageOnPort(port2)!.message as { config: typeof shared };
      expect(received.config.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
      received.config.bytes[0] ^= 0xff;
      expect(shared.bytes[0]).toBe(received.config.bytes[0]);
    } finally {
      port1.close();
    }
  });

  it('gives each reader its own objects, so that one thread changing its config changes no other', () => {
    const shared = shareConfig(config);
    const first = readConfig(shared);
    first.profile.name = 'changed';
    expect(readConfig(shared).profile.name).toBe(config.profile.name);
  });
});
