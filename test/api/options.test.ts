// Options validated, defaulted, frozen; an unknown key is an error.

import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/api/options.js';
import { buildServer } from '../../src/api/index.js';

describe('buildServer options', () => {
  it('defaults expires_in to 749 and freezes the result', () => {
    const o = resolveOptions({ logger: false });
    expect(o.accessTokenTtlSeconds).toBe(749);
    expect(o.tokenRateLimit).toEqual({ max: 60, timeWindowMs: 60_000 });
    expect(Object.isFrozen(o)).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown key', { port: 1 }, '/port'],
    ['a non-integer lifetime', { accessTokenTtlSeconds: 1.5 }, '/accessTokenTtlSeconds'],
    ['a zero lifetime', { refreshTokenTtlSeconds: 0 }, '/refreshTokenTtlSeconds'],
    ['a code lifetime above ten minutes', { authorizationCodeTtlSeconds: 601 }, '/authorizationCodeTtlSeconds'],
    ['an unknown rate-limit key', { tokenRateLimit: { max: 1, per: 2 } }, '/tokenRateLimit.per'],
    ['a relative URL', { urls: { baseUrl: '/x' } }, '/urls.baseUrl'],
    ['a short legacy key', { nonEmployeeApiKeys: ['short'] }, '/nonEmployeeApiKeys'],
    ['a weak scrypt cost', { secretHashCost: 4 }, '/secretHashCost'],
    // Keys every object inherits are no limits: they were taken as known and silently dropped.
    ['a request limit every object inherits', { requestLimits: { toString: 5 } }, '/requestLimits.toString'],
    ['a JSON __proto__ request limit', JSON.parse('{"requestLimits":{"__proto__":5}}') as Record<string, unknown>, '/requestLimits.__proto__'],
  ])('rejects %s with API_OPTIONS', (_name, options, path) => {
    expect(() => resolveOptions(options as never)).toThrow(expect.objectContaining({ code: 'API_OPTIONS', path }));
  });

  it('rejects before opening anything', async () => {
    await expect(buildServer({ nope: true } as never)).rejects.toMatchObject({ code: 'API_OPTIONS' });
  });
});
