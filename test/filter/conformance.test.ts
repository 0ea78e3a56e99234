// The filter vectors of test/conformance/data/filters (origins in its SOURCES.md): SailPoint's
// collection-filter examples and RFC 7644's SCIM examples, run against parseApiFilter.

import { describe, expect, it } from 'vitest';
import { readConformanceJson } from '../conformance/data.js';
import { compileSql, formatFilter, parseApiFilter, stripRanges, type FieldMap, type OperatorName } from '../../src/filter/index.js';

const read = (name: string) => readConformanceJson('filters', name);

interface SailPointVectors {
  valid: { filter: string; op: string }[];
  precedenceEquivalences: { filter: string; equivalentTo: string }[];
  invalid: { filter: string; reason: string }[];
  urlEscaping: { examples: { raw: string; result: string }[] };
  perEndpointAllowlistExamples: Record<string, Record<string, string[]> | string>;
}

describe('conformance: SailPoint collection filter examples', () => {
  const v = read('sailpoint-v3-filter-examples.json') as SailPointVectors;
  const OP_KIND: Record<string, string> = {
    eq: 'compare', ne: 'compare', gt: 'compare', ge: 'compare', lt: 'compare', le: 'compare',
    co: 'like', sw: 'like', in: 'in', ca: 'containsAll', pr: 'present', isnull: 'isNull', and: 'and', or: 'or', not: 'not',
  };

  it.each(v.valid)('$filter parses to a $op node and prints back identically', ({ filter, op }) => {
    const ast = parseApiFilter(filter);
    expect(ast.kind).toBe(OP_KIND[op]);
    if (ast.kind === 'compare') expect(ast.op).toBe(op);
    expect(stripRanges(parseApiFilter(formatFilter(ast, 'api')))).toEqual(stripRanges(ast));
  });

  it.each(v.precedenceEquivalences)('$filter ≡ $equivalentTo', ({ filter, equivalentTo }) => {
    expect(stripRanges(parseApiFilter(filter))).toEqual(stripRanges(parseApiFilter(equivalentTo)));
  });

  it.each(v.invalid)('$filter is a 400 ($reason)', ({ filter }) => {
    expect(() => parseApiFilter(filter)).toThrow(expect.objectContaining({ code: 'FILTER_SYNTAX', status: 400 }));
  });

  it.each(v.urlEscaping.examples)('URL $raw → $result', ({ raw, result }) => {
    const filters = new URL(`http://tenant/v3/x?filters=${raw}`).searchParams.get('filters')!;
    if (result.startsWith('400')) {
      expect(() => parseApiFilter(filters)).toThrow(expect.objectContaining({ code: 'FILTER_SYNTAX', status: 400 }));
    } else {
      const expected = /matches name (.*)$/.exec(result)![1]!;
      expect(parseApiFilter(filters)).toMatchObject({ property: 'name', value: { value: expected } });
    }
  });

  const endpoints = Object.entries(v.perEndpointAllowlistExamples).filter(([, m]) => typeof m === 'object');
  it.each(endpoints)('the %s allowlist admits its operators and refuses the others', (_endpoint, allow) => {
    const fields: FieldMap = Object.fromEntries(
      Object.entries(allow as Record<string, string[]>).map(([f, ops]) => [f, { type: 'string', column: 'c', operators: ops as OperatorName[] }]),
    );
    for (const [field, ops] of Object.entries(allow as Record<string, string[]>)) {
      for (const op of ['eq', 'in', 'sw', 'gt', 'isnull', 'co']) {
        const filter = op === 'isnull' ? `${field} isnull` : op === 'in' ? `${field} in ("x")` : `${field} ${op} "x"`;
        const compile = () => compileSql(parseApiFilter(filter), fields);
        if (ops.includes(op)) expect(compile).not.toThrow();
        else expect(compile).toThrow(expect.objectContaining({ code: 'FILTER_OPERATOR', status: 400 }));
      }
    }
    expect(() => compileSql(parseApiFilter('notAField eq "x"'), fields)).toThrow(expect.objectContaining({ code: 'FILTER_FIELD', status: 400 }));
  });
});

// RFC 7644 is SCIM; SailPoint's dialect is stricter (lowercase operators, prefix `pr`, no
// URN paths or [value filters]). Each RFC example either parses or is refused at the point
// where the dialects part, for the reason given here.
const SCIM_DIFFERENCES: Record<string, { position: number; reason: RegExp }> = {
  'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"': { position: 0, reason: /not a field name/ },
  'title pr': { position: 6, reason: /'pr' cannot follow a field/ },
  'title pr and userType eq "Employee"': { position: 6, reason: /'pr' cannot follow a field/ },
  'title pr or userType eq "Intern"': { position: 6, reason: /'pr' cannot follow a field/ },
  'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]': { position: 27, reason: /not a field name/ },
  'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]': { position: 0, reason: /not a field name/ },
  'userName Eq "john"': { position: 9, reason: /operators are lowercase/ },
};

describe('conformance: RFC 7644 example filters in the SailPoint dialect', () => {
  const v = read('scim-rfc7644-examples.json') as { filters: string[]; caseInsensitiveEquivalents: string[] };
  const all = [...v.filters, ...v.caseInsensitiveEquivalents];

  it.each(all)('%s', (filter) => {
    const difference = SCIM_DIFFERENCES[filter];
    if (difference === undefined) {
      expect(stripRanges(parseApiFilter(formatFilter(parseApiFilter(filter), 'api')))).toEqual(stripRanges(parseApiFilter(filter)));
    } else {
      expect(() => parseApiFilter(filter)).toThrow(expect.objectContaining({ code: 'FILTER_SYNTAX', position: difference.position, message: expect.stringMatching(difference.reason) }));
    }
  });

  it('names only RFC examples in its list of dialect differences', () => {
    for (const filter of Object.keys(SCIM_DIFFERENCES)) expect(all).toContain(filter);
  });
});
