// Templates are sandboxed: the known escape attempts from VTL/SSTI playbooks
// and from velocityjs (which calls any JS method on any value) must not reach constructor,
// __proto__, prototype, process, globalThis, Function or any host method.

import { afterEach, describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';
import type { IdentityGraph } from '../../../src/providers/types.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

const graph: IdentityGraph = {
  identity: { id: 'i', name: 'n', attributes: { a: 'x', nested: { k: 'v' } } },
  accounts: [],
  sources: new Map(),
  manager: null,
};

function attempt(template: string, variables: Record<string, unknown> = { x: 'str', n: '1' }): TransformsError | string {
  try {
    return compileTemplate(template, options).render(variables, { identity: graph });
  } catch (e) {
    if (e instanceof TransformsError) return e;
    throw e;
  }
}

afterEach(() => {
  expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
});

describe('escape attempts are refused with a coded error', () => {
  it.each([
    ['$x.constructor', 'TEMPLATE_FORBIDDEN'],
    ["$x.constructor.constructor('return process')", 'TEMPLATE_FORBIDDEN'],
    // (The `()` after the call is text, as in Velocity 1.7: the forbidden name is what refuses it.)
    ["$x.constructor.constructor('return process')()", 'TEMPLATE_FORBIDDEN'],
    ['$x.getClass()', 'TEMPLATE_FORBIDDEN'],
    ["$x.getClass().forName('java.lang.Runtime').getRuntime().exec('id')", 'TEMPLATE_FORBIDDEN'],
    ['$x.class.forName("java.lang.System")', 'TEMPLATE_FORBIDDEN'],
    ['$x.__proto__', 'TEMPLATE_FORBIDDEN'],
    ['$x.__proto__.polluted', 'TEMPLATE_FORBIDDEN'],
    ['$x["__proto__"]', 'TEMPLATE_FORBIDDEN'],
    ['$x["constructor"]', 'TEMPLATE_FORBIDDEN'],
    ['$x.prototype', 'TEMPLATE_FORBIDDEN'],
    ['#set($a = $x.constructor)', 'TEMPLATE_FORBIDDEN'],
    ['#set($m = {})#set($m.__proto__ = 1)', 'TEMPLATE_FORBIDDEN'],
    ['$identity.constructor', 'TEMPLATE_FORBIDDEN'],
    ['$identity.getClass().getClassLoader()', 'TEMPLATE_FORBIDDEN'],
    ['$foreach.constructor', 'TEMPLATE_FORBIDDEN'],
    ['$x.__defineGetter__("a", $x)', 'TEMPLATE_FORBIDDEN'],
    ['#parse("/etc/passwd")', 'TEMPLATE_FORBIDDEN'],
    ['#include("/etc/passwd")', 'TEMPLATE_FORBIDDEN'],
    ['#evaluate("$x")', 'TEMPLATE_FORBIDDEN'],
    // Velocity's grammar has no call of a reference: 1.7 does not parse it.
    ['#set($r = $x(1))', 'TEMPLATE_SYNTAX'],
  ])('%s → %s', (template, code) => {
    const r = attempt(template);
    expect(r).toBeInstanceOf(TransformsError);
    expect((r as TransformsError).code).toBe(code);
  });

  it('forbidden names are found at compile time, even in a branch that never runs', () => {
    expect(() => compileTemplate('#if(false)$x.constructor#end', options)).toThrow(
      expect.objectContaining({ code: 'TEMPLATE_FORBIDDEN', details: { name: 'constructor', line: 1, column: 11 } }),
    );
  });
});

describe('host objects are unreachable: everything else is "no such method" (TEMPLATE_RENDER)', () => {
  it.each([
    '$process',
    '$globalThis',
    '$Function',
    '$require',
    '$toString',
    '$hasOwnProperty',
    '$valueOf',
    '$x.valueOf()',
    '$x.toString.call($x)',
    '$x.at(0)',
    '$x.codePointAt.apply($x)',
    '$x.bind',
    '$x.length',
    '$x.anchor("a")',
    '$identity.graph',
    '$identity.identity',
    '$identity.call("getName", [])',
    '$identity.links()',
    '$identity.getLinks().map',
    '$identity.getLinks().push(1)',
    '#set($m = {})$m.entries()',
    '#set($l = [1])$l.join(",")',
  ])('%s', (template) => {
    const r = attempt(template);
    expect(r).toBeInstanceOf(TransformsError);
    expect((r as TransformsError).code).toBe('TEMPLATE_RENDER');
  });

  it('variables named like host globals are just variables', () => {
    expect(attempt('$process', { process: 'a step' })).toBe('a step');
    expect(attempt('$constructor', { constructor: 'c' })).toBe('c');
  });

  it('inherited Object.prototype members of the variables object are not variables', () => {
    const r = attempt('$toString', {});
    expect((r as TransformsError).code).toBe('TEMPLATE_RENDER');
  });

  it('a map key named like a JS internal is data, not a route to the prototype', () => {
    expect(attempt('#set($m = {"toString": "data"})$m.toString')).toBe('data');
    expect(attempt('#set($m = {"valueOf": "v"})$m.get("valueOf")')).toBe('v');
  });

  it('functions smuggled in through variables render as null, never run', () => {
    let called = false;
    const r = attempt('$f', {
      f: () => {
        called = true;
      },
    });
    expect((r as TransformsError).code).toBe('TEMPLATE_RENDER');
    expect(called).toBe(false);
  });

  it('Object.prototype stays clean after #set on maps', () => {
    attempt('#set($m = {})#set($m.polluted = "yes")$m.polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
