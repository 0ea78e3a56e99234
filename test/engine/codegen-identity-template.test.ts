// Templates that are one `$identity` reference to the identity or its manager, compiled to
// JavaScript (engine/codegen/identity-template.ts), give what the general Velocity renderer
// gives: the same value or the same coded error, over identities with and without a manager,
// names and attributes of every kind (absent, null, empty, numbers, lists, longer than
// maxStringLength), budgets the getName() charge exhausts, and providers that fail.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { identityTemplate } from '../../src/engine/codegen/identity-template.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { compileJavaRegex } from '../../src/runtime/regex/index.js';
import { compileTemplate } from '../../src/runtime/velocity/index.js';
import type { Identity, Providers } from '../../src/providers/types.js';

const limits = { maxStringLength: 40, maxAllocation: 60 };

function engines(providers: Providers): readonly [Engine, Engine] {
  return [createEngine({ codegen: true, limits, providers }), createEngine({ codegen: false, limits, providers })];
}

function outcome(engine: Engine, template: string, identity: Identity, variables: Record<string, unknown> = {}): unknown {
  try {
    return { value: engine.evaluateSync({ name: 'T', type: 'static', attributes: { value: template, ...variables } }, { identity }) };
  } catch (e) {
    const error = e as { code?: string; message?: string; path?: string };
    return { code: error.code, message: error.message, path: error.path };
  }
}

/** Whether the template is generated as JavaScript (rather than left to the renderer). */
function compiled(source: string): boolean {
  let template;
  try {
    template = compileTemplate(source, { maxLength: 10_000, regex: compileJavaRegex });
  } catch {
    return false; // a template that does not compile (TEMPLATE_FORBIDDEN) fails before any code runs
  }
  return identityTemplate(template, { ev: 'ev', rt: 'rt', bind: () => 'b0' }, 'return null;') !== undefined;
}

const value = fc.constantFrom<unknown>('cn=Ann,ou=People', '', 'é😀', 'a'.repeat(35), 'a'.repeat(41), 7, 1.5, true, null, [], ['x'], { a: 1 }, undefined);
const attributes = fc.oneof(
  fc.record({ networkDn: value, class: value }, { requiredKeys: [] }),
  fc.constantFrom<unknown>(undefined, null, 'text', ['networkDn'], Object.assign(Object.create({ networkDn: 'inherited' }) as object, {})),
);
const manager = fc.option(fc.record({ name: value, attributes }), { nil: undefined });
const templates = fc
  .tuple(
    fc.constantFrom('$identity', '$identity', '${identity', '$!identity', '$identity.'),
    fc.constantFrom('', '.manager', '.getManager()', '.getManager()', '.getmanager()', '.Manager', '.manager.manager'),
    fc.constantFrom('.name', '.getName()', '.attributes.networkDn', '.getAttributes().networkDn', '.attributes.networkDn', '.attributes.class', '.attributes.missing', '.id', '.getAttributes().get("networkDn")', '.attributes'),
    fc.constantFrom('', '', '', ' ', 'x'),
  )
  .map(([head, step, read, tail]) => `${head}${step}${read}${head === '${identity' ? '}' : ''}${tail}`);

describe('compiled $identity templates', () => {
  it.each([
    ['$identity.getManager().getName()', true],
    ['$identity.manager.attributes.networkDn', true],
    ['${identity.manager.name}', true],
    ['$identity.getAttributes().mail', true],
    ['$!identity.name', false],
    ['$identity.manager.name ', false],
    ['$identity.manager.manager.name', false],
    ['$identity.attributes.get("mail")', false],
    ['$identity.getAttribute("mail")', false],
    ['$identity.links', false],
  ])('%j is compiled: %s', (template, expected) => {
    expect(compiled(template)).toBe(expected);
  });

  it('random templates over random identities and managers give the general renderer’s outcome', () => {
    // The manager the identity provider gives, set for each case.
    let boss: Identity | null = null;
    const [withCode, closures] = engines({
      ...createMemoryProviders({ sources: [], identities: [], accounts: [] }),
      identities: { getIdentity: (id) => (id === 'm1' ? boss : null) },
    });
    let generated = 0;
    let values = 0;
    let errors = 0;
    fc.assert(
      fc.property(templates, manager, attributes, value, (template, m, own, name) => {
        boss = m === undefined ? null : ({ id: 'm1', ...m } as unknown as Identity);
        const identity = { id: 'i1', name, attributes: own, managerId: 'm1' } as unknown as Identity;
        const expected = outcome(closures, template, identity);
        if (compiled(template)) {
          generated++;
          if ((expected as { value?: unknown }).value !== undefined) values++;
          if ((expected as { code?: unknown }).code === 'TEMPLATE_RENDER') errors++;
        }
        expect(outcome(withCode, template, identity)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
    // The property must exercise the compiled path, its values and its errors, not only the general renderer.
    expect(generated).toBeGreaterThan(120);
    expect(values).toBeGreaterThan(25);
    expect(errors).toBeGreaterThan(25);
  });

  it('a dynamic variable named identity is read as the renderer reads it', () => {
    const [generated, closures] = engines(createMemoryProviders({ sources: [], identities: [], accounts: [] }));
    const identity = { id: 'i1', name: 'jdoe', attributes: {} } as Identity;
    for (const variable of ['x', '', { type: 'identityAttribute', attributes: { name: 'missing' } }]) {
      expect(outcome(generated, '$identity.name', identity, { identity: variable })).toEqual(outcome(closures, '$identity.name', identity, { identity: variable }));
    }
  });

  it('a provider failing while the identity graph loads is the same error', () => {
    const failing: Providers = {
      ...createMemoryProviders({ sources: [], identities: [], accounts: [] }),
      identities: {
        getIdentity() {
          throw new Error('down');
        },
      },
    };
    const [generated, closures] = engines(failing);
    const identity = { id: 'i1', name: 'jdoe', attributes: {}, managerId: 'm1' } as Identity;
    const expected = outcome(closures, '$identity.getManager().getName()', identity);
    expect(expected).toMatchObject({ code: 'EVAL_PROVIDER_FAILED' });
    expect(outcome(generated, '$identity.getManager().getName()', identity)).toEqual(expected);
  });

  it('a failing accounts provider fails neither path when the template reads only the manager', () => {
    const manager = { id: 'm1', name: 'boss', attributes: {} } as Identity;
    const failing: Providers = {
      ...createMemoryProviders({ sources: [], identities: [manager], accounts: [] }),
      accounts: {
        listAccounts() {
          throw new Error('down');
        },
      },
    };
    const [generated, closures] = engines(failing);
    const identity = { id: 'i1', name: 'jdoe', attributes: {}, managerId: 'm1' } as Identity;
    for (const engine of [generated, closures]) {
      expect(outcome(engine, '$identity.getManager().getName()', identity)).toEqual({ value: 'boss' });
      expect(outcome(engine, '$identity.links', identity)).toMatchObject({ code: 'EVAL_PROVIDER_FAILED' });
    }
  });

  it('a link leads back to its identity and so to the manager, loaded with the links', () => {
    const manager = { id: 'm1', name: 'boss', attributes: {} } as Identity;
    const identity = { id: 'i1', name: 'jdoe', attributes: {}, managerId: 'm1' } as Identity;
    const providers = createMemoryProviders({
      sources: [{ id: 's1', name: 'One' }],
      identities: [identity, manager],
      accounts: [{ id: 'a1', sourceId: 's1', identityId: 'i1', nativeIdentity: 'a1', name: 'a1', attributes: {} }],
    } as Parameters<typeof createMemoryProviders>[0]);
    for (const engine of engines(providers)) {
      expect(outcome(engine, '#foreach($l in $identity.links)$l.getIdentity().getManager().getName()#end', identity)).toEqual({ value: 'boss' });
    }
  });
});
