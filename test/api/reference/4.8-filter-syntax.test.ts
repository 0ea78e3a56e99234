// §4.8 of the statement table in docs/api.md, the syntax of the `filters` parameter
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters), through HTTP on
// /v3/sources: lower-case operators, precedence and parentheses, strings compared ignoring case,
// and the escapes inside a quoted value. The date-time, `#`/`%` and per-endpoint statements of
// §4.8 are in 4.6-collection-parameters.test.ts, with the in-memory/--db pair they need.

import { expect, it } from 'vitest';
import { expectPlatformError } from '../helpers.js';
import { withResourceServer } from '../suites.js';

const session = withResourceServer();

const list = (filters: string) => session.server.api.inject({ url: `/v3/sources?filters=${encodeURIComponent(filters)}`, headers: session.auth });

/** The names of the sources the filter selects, sorted. */
async function names(filters: string): Promise<string[]> {
  const res = await list(filters);
  expect(res.statusCode, `${filters}: ${res.body}`).toBe(200);
  return (res.json() as { name: string }[]).map((s) => s.name).sort();
}

it('§4.8 operators are lower case: name eq "Okta" selects, name EQ "Okta" is a 400', async () => {
  expect(await names('name eq "Okta"')).toEqual(['Okta']);
  const res = await list('name EQ "Okta"');
  expect(res.statusCode).toBe(400);
  expectPlatformError(res.json());
});

it('§4.8 not binds tighter than and, and and tighter than or; parentheses override', async () => {
  // a or (b and c): "HR Source" starts with HR but does not contain Corporate.
  expect(await names('name eq "Okta" or name sw "HR" and name co "Corporate"')).toEqual(['Okta']);
  expect(await names('(name eq "Okta" or name sw "Corporate") and name co "HR"')).toEqual(['Corporate HR']);
  // (not a) and b, not not (a and b).
  expect(await names('not name co "HR" and name sw "O"')).toEqual(['Okta']);
  expect(await names('not (name co "HR" and name sw "O")')).toHaveLength(6);
});

it('§4.8 strings compare ignoring case', async () => {
  expect(await names('name eq "okta"')).toEqual(['Okta']);
  expect(await names('name sw "CORPORATE"')).toEqual(['Corporate HR']);
  expect(await names('name in ("workday", "OKTA")')).toEqual(['Okta', 'Workday']);
});

it('§4.8 inside a quoted value a backslash escapes a quote or a backslash, and & travels as %26', async () => {
  const [partner] = (await list('name eq "Partner Accounts"')).json() as { id: string }[];
  const renamed = 'Partner "A" \\ B & C';
  const patch = (name: string) =>
    session.server.api.inject({ method: 'PATCH', url: `/v3/sources/${partner!.id}`, headers: { ...session.auth, 'content-type': 'application/json-patch+json' }, payload: [{ op: 'replace', path: '/name', value: name }] });
  expect((await patch(renamed)).statusCode).toBe(200);
  try {
    // encodeURIComponent writes & as %26 (a raw & would split the parameter).
    expect(await names('name eq "Partner \\"A\\" \\\\ B & C"')).toEqual([renamed]);
    expect(await names('name co "\\\\ b &"')).toEqual([renamed]);
  } finally {
    expect((await patch('Partner Accounts')).statusCode).toBe(200);
  }
});
