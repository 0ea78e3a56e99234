// $identity in templates (the Identity/Link methods of
// https://developer.sailpoint.com/docs/extensibility/rules/java-docs and the identity-context
// examples of https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): the
// documented examples rendered over a hand-built IdentityGraph.

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';
import type { Account, Identity, IdentityGraph, Source } from '../../../src/providers/types.js';

const AD_ID = '2c918088814e6a610181686b56977fa8';

const sources: Source[] = [
  { id: AD_ID, name: 'Active Directory' },
  { id: 'hr-1', name: 'HR Source', applicationName: 'Workday [source]', externalId: 'ext-hr' },
];

const manager: Identity = {
  id: 'mgr-1',
  name: 'alice.boss',
  attributes: { country: 'FR', networkDn: 'CN=Alice,OU=Users,DC=corp', displayName: 'Alice Boss' },
  isManager: true,
};

const john: Identity = {
  id: 'id-1',
  name: 'john.doe',
  managerId: 'mgr-1',
  attributes: {
    firstname: 'John',
    lastname: 'Doe',
    email: 'john.doe@corp.example',
    displayName: 'John Doe',
    department: 'Engineering',
    memberOf: ['admins', 'devs'],
    startYear: 2019,
  },
};

function account(id: string, sourceId: string, nativeIdentity: string, attributes: Record<string, unknown> = {}): Account {
  return { id, identityId: 'id-1', sourceId, nativeIdentity, name: nativeIdentity.toUpperCase(), created: '2020-01-01T00:00:00Z', hasEntitlements: false, attributes };
}

function graph(options: { accounts?: Account[]; manager?: Identity | null } = {}): IdentityGraph {
  return {
    identity: john,
    accounts: options.accounts ?? [account('acc-1', AD_ID, 'CN=John,OU=Users', { sAMAccountName: 'jdoe' }), account('acc-2', AD_ID, 'CN=John2,OU=Admins'), account('acc-3', 'hr-1', 'E100', { empType: 'Employee' })],
    sources: new Map(sources.map((s) => [s.id, s])),
    manager: options.manager === undefined ? manager : options.manager,
  };
}

function render(template: string, g: IdentityGraph = graph(), variables: Record<string, unknown> = {}): string {
  return compileTemplate(template, { maxLength: 10_000, regex: compileJavaRegex }).render(variables, { identity: g });
}

function fails(template: string, g: IdentityGraph = graph(), variables: Record<string, unknown> = {}): TransformsError {
  try {
    render(template, g, variables);
  } catch (e) {
    expect(e).toBeInstanceOf(TransformsError);
    return e as TransformsError;
  }
  throw new Error('expected a TransformsError');
}

describe('identity-context guide examples', () => {
  it('$identity.getManager().getId() gives the manager id', () => {
    expect(render('$identity.getManager().getId()')).toBe('mgr-1');
  });

  it('…and fails ("Error rendering template") when there is no manager: getManager() returns null', () => {
    const e = fails('$identity.getManager().getId()', graph({ manager: null }));
    expect(e.code).toBe('TEMPLATE_RENDER');
  });

  it("$identity.getManager().getStringAttribute('country')", () => {
    expect(render("$identity.getManager().getStringAttribute('country')")).toBe('FR');
  });

  it('$identity.getManagerStatus() renders the boolean as text (is this identity a manager?)', () => {
    expect(render('$identity.getManagerStatus()')).toBe('false');
    expect(render('$identity.getManager().getManagerStatus()')).toBe('true');
  });

  it('$identity.getLinks() renders the list of links', () => {
    expect(render('$identity.getLinks()')).toBe(
      '[sailpoint.object.Link[id=acc-1,nativeIdentity=CN=John,OU=Users], sailpoint.object.Link[id=acc-2,nativeIdentity=CN=John2,OU=Admins], sailpoint.object.Link[id=acc-3,nativeIdentity=E100]]',
    );
  });

  it('getLinksByAppIdOrName by source id, [0].id', () => {
    expect(render(`$identity.getLinksByAppIdOrName("${AD_ID}",null)[0].id`)).toBe('acc-1');
  });

  it('getLinksByAppIdOrName by "<source name> [source]"', () => {
    expect(render('$identity.getLinksByAppIdOrName(null,"Active Directory [source]")[0].id')).toBe('acc-1');
    expect(render('$identity.getLinksByAppIdOrName(null,"Workday [source]").size()')).toBe('1');
    expect(render('$identity.getLinksByAppIdOrName(null,"Active Directory").size()')).toBe('0');
  });

  it('getLinksByAppIdOrName on a source without accounts: [0] is an error', () => {
    expect(fails('$identity.getLinksByAppIdOrName("nope",null)[0].id').code).toBe('TEMPLATE_RENDER');
  });

  const foreachExample = `#foreach($account in $identity.getLinksByAppIdOrName("${AD_ID}",null))#if($foreach.index + 1 != $identity.getLinks().size())$account.getNativeIdentity(),#else$account.getNativeIdentity()#end#end`;

  it('the #foreach example joins native identities (every link on the source)', () => {
    const onlyAd = graph({ accounts: [account('a', AD_ID, 'n1'), account('b', AD_ID, 'n2'), account('c', AD_ID, 'n3')] });
    expect(render(foreachExample, onlyAd)).toBe('n1,n2,n3');
  });

  it('…and, as documented, compares with getLinks().size() of all sources (a trailing comma when other sources have links)', () => {
    expect(render(foreachExample)).toBe('CN=John,OU=Users,CN=John2,OU=Admins,');
  });

  it('a dynamic variable holding "$identity.getManager()" is a string: calling Identity methods on it fails', () => {
    const rendered = render('$identity.getManager()');
    expect(rendered).toBe('sailpoint.object.Identity[id=mgr-1,name=alice.boss]');
    expect(fails("$manager.getStringAttribute('country')", graph(), { manager: rendered }).code).toBe('TEMPLATE_RENDER');
    const managerCountry = render("$identity.getManager().getStringAttribute('country')");
    expect(render('$managerCountry', graph(), { managerCountry })).toBe('FR');
  });
});

describe('Identity getters', () => {
  it.each([
    ['$identity.getId()', 'id-1'],
    ['$identity.getName()', 'john.doe'],
    ['$identity.getDisplayName()', 'John Doe'],
    ['$identity.getFirstname() $identity.getLastname()', 'John Doe'],
    ['$identity.getFullName()', 'John Doe'],
    ['$identity.getEmail()', 'john.doe@corp.example'],
    ["$identity.getAttribute('department')", 'Engineering'],
    ["$identity.getAttribute('memberOf')", '[admins, devs]'],
    ["$identity.getAttribute('memberOf').size()", '2'],
    ["$identity.getStringAttribute('startYear')", '2019'],
    ["#set($y = $identity.getAttribute('startYear') + 1)$y", '2020'],
    ['$identity.isInactive()', 'false'],
    ['$identity.isCorrelated()', 'true'],
    ['$identity.getLinks().size()', '3'],
    ["#if($identity.getAttribute('nothing'))set#{else}unset#end", 'unset'],
    ["$!identity.getAttribute('nothing')|", '|'],
  ])('%s → %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([
    ['$identity.name', 'john.doe'],
    ['$identity.displayName', 'John Doe'],
    ['$identity.manager.name', 'alice.boss'],
    ['$identity.manager.attributes.networkDn', 'CN=Alice,OU=Users,DC=corp'],
    ['$identity.attributes.department', 'Engineering'],
    ['$identity.links[0].nativeIdentity', 'CN=John,OU=Users'],
    ['$identity.inactive', 'false'],
  ])('property style %s → %j (Velocity resolves getters)', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it("rendering a missing attribute is an error: $identity.getAttribute('nothing')", () => {
    expect(fails("$identity.getAttribute('nothing')").code).toBe('TEMPLATE_RENDER');
  });

  it("the manager's own links and manager are not loaded: an error, never invented data", () => {
    expect(fails('$identity.getManager().getLinks()').code).toBe('TEMPLATE_RENDER');
    expect(fails('$identity.getManager().getManager()').code).toBe('TEMPLATE_RENDER');
  });

  it('unknown getters are errors', () => {
    expect(fails('$identity.getPassword()').code).toBe('TEMPLATE_RENDER');
    expect(fails('$identity.identity').code).toBe('TEMPLATE_RENDER');
  });

  it('the identity graph is read only: templates cannot change attribute data', () => {
    expect(fails("#set($a = $identity.getAttribute('memberOf'))#set($x = $a.add('root'))$x").code).toBe('TEMPLATE_RENDER');
    expect(fails("#set($m = $identity.getAttributes())#set($x = $m.put('department', 'Root'))$x").code).toBe('TEMPLATE_RENDER');
    expect(fails("#set($m = $identity.getAttributes())#set($m.department = 'Root')").code).toBe('TEMPLATE_RENDER');
    expect(john.attributes.memberOf).toEqual(['admins', 'devs']);
  });
});

describe('getAttributes(): a read-only map whatever the template does with it', () => {
  // The map converts each value when first read; every operation must see what a map converted
  // at once sees: the same template over $attrs (a variable, converted when the render starts).
  const attrs = { ...john.attributes, ratio: 1.5, whole: 2.0, nested: { share: 0.25, tags: ['x', 3.5] }, empty: null };
  const subject: Identity = { ...john, attributes: attrs };
  const outcome = (run: () => string): string => {
    try {
      return run();
    } catch (error) {
      return error instanceof TransformsError ? `${error.code}: ${error.message}` : String(error);
    }
  };
  it.each([
    ['$M', '$M.toString()'],
    ['$M.startYear', '#set($y = $M.get("startYear") + 1)$y'],
    ['$M.memberOf[1]', '$M.memberOf.size()'],
    ['$M.keySet()', '$M.values()'],
    ['$M.size()', '$M.isEmpty()'],
    ['$M.containsValue("Doe")', '$M.containsKey("lastname")'],
    ['$M.hashCode()', '$M.getOrDefault("nothing", "d")'],
    ['#foreach($v in $M)$v;#end', '#if($M == $attrs)same#{else}differ#end'],
    ['$M.get("email")$M.hashCode()', '$M.lastname $M.values()'],
    ['#set($x = $M)$x.firstname$x', '#set($l = [$M])$l'],
    ['$M.ratio $M.whole', '$M.nested.tags[1] $M.nested'],
    ['#set($r = $M.ratio * 2)$r', '$M.containsValue(1.5)$M.containsKey("empty")'],
    ['#set($n = $M.nested)$M.size() $M.keySet()', '#set($k = $M.containsKey("ratio"))$k $M'],
  ])('%s and %s', (one, two) => {
    for (const template of [one, two, `${one}|${two}`, `${two}|${one}`]) {
      const lazy = outcome(() => render(template.replaceAll('$M', '$identity.attributes'), { ...graph(), identity: subject }, { attrs }));
      // A variable name as long as identity.attributes: error locations compare too.
      expect(lazy).toBe(outcome(() => render(template.replaceAll('$M', '$hostAttributesEager'), graph(), { attrs, hostAttributesEager: attrs })));
    }
  });

  it('an empty attribute object is an empty map', () => {
    const bare: Identity = { id: 'id-2', name: 'bare', attributes: {} };
    const g: IdentityGraph = { identity: bare, accounts: [], sources: new Map(), manager: { ...bare, attributes: {} } };
    expect(render('$identity.attributes|$identity.manager.attributes.size()', g)).toBe('{}|0');
  });
});

describe('Link getters', () => {
  const first = '$identity.getLinks()[0]';
  const hr = '$identity.getLinks()[2]';
  it.each([
    [`${first}.getId()`, 'acc-1'],
    [`${first}.id`, 'acc-1'],
    [`${first}.getNativeIdentity()`, 'CN=John,OU=Users'],
    [`${first}.getAttribute("sAMAccountName")`, 'jdoe'],
    [`${first}.attributes.sAMAccountName`, 'jdoe'],
    [`${first}.getApplicationName()`, 'Active Directory [source]'],
    [`${first}.getApplicationId()`, AD_ID],
    [`${first}.getDisplayableName()`, 'CN=JOHN,OU=USERS'],
    [`${first}.getIdentity().getName()`, 'john.doe'],
    [`${first}.getApplication().getName()`, 'Active Directory [source]'],
    [`${first}.isDisabled()`, 'false'],
    [`${hr}.getApplicationName()`, 'Workday [source]'],
    [`${hr}.getApplicationId()`, 'ext-hr'],
    [`${hr}.getAttribute("empType")`, 'Employee'],
  ])('%s → %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('getLinksByAppIdOrName also accepts the external application id', () => {
    expect(render('$identity.getLinksByAppIdOrName("ext-hr",null)[0].nativeIdentity')).toBe('E100');
  });
});

describe('the template reports $identity use so the engine loads the graph first', () => {
  it.each([
    ['$identity.getName()', true],
    ['#if($identity.isInactive())x#end', true],
    ['$name', false],
  ])('%s usesIdentity=%s', (template, expected) => {
    expect(compileTemplate(template, { maxLength: 1000, regex: compileJavaRegex }).usesIdentity).toBe(expected);
  });

  it('$identity wraps the graph lazily: a template that does not reach it never reads it', () => {
    const t = compileTemplate('#if($a == "x")$identity.getName()#{else}none#end', { maxLength: 1000, regex: compileJavaRegex });
    const poisoned = new Proxy({} as IdentityGraph, {
      get() {
        throw new Error('graph read');
      },
    });
    expect(t.render({ a: 'y' }, { identity: poisoned })).toBe('none');
  });
});

describe('the template records what it reads from $identity: the first step of each reference', () => {
  const WHOLE = { step: 'whole' };
  it.each<[string, string, unknown[]]>([
    ['a property', '$identity.manager.name', [{ step: 'property', name: 'manager' }]],
    ['a getter', '$identity.getManager().getName()', [{ step: 'method', name: 'getManager' }]],
    ['a property in braces', '${identity.attributes.department}', [{ step: 'property', name: 'attributes' }]],
    ['a quiet reference to a property', '$!identity.name', [{ step: 'property', name: 'name' }]],
    ['$!identity alone', 'x$!identity', [WHOLE]],
    ['an index', '$identity["manager"]', [{ step: 'index' }]],
    ['$identity passed to a method', '#set($l = [])$l.add($identity)', [WHOLE]],
    ['$identity passed to a macro', '#macro(m $p)$p.links#end#m($identity)', [WHOLE]],
    ['$identity set to a variable', '#set($i = $identity)$i.manager.name', [WHOLE]],
    ['#foreach over $identity', '#foreach($x in $identity)$x#end', [WHOLE]],
    ['#foreach over its links', '#foreach($l in $identity.links)$l.nativeIdentity#end', [{ step: 'property', name: 'links' }]],
    ['a condition', '#if($identity.isInactive())x#end', [{ step: 'method', name: 'isInactive' }]],
    ['inside an interpolated string', '#set($s = "$identity.getLinks()")$s', [{ step: 'method', name: 'getLinks' }]],
    ['inside a macro body', '#macro(m)$identity.manager.name#end#m()', [{ step: 'property', name: 'manager' }]],
    ['each reference in order', '$identity.name $identity.getManager().name', [{ step: 'property', name: 'name' }, { step: 'method', name: 'getManager' }]],
    ['none in a comment', '## $identity.links\n$name', []],
    ['none for a macro parameter of that name', '#macro(m $identity)$identity.links#end#m($name)', []],
  ])('%s: %s', (_what, template, expected) => {
    const t = compileTemplate(template, { maxLength: 1000, regex: compileJavaRegex });
    expect(t.identityReads).toEqual(expected);
    expect(t.usesIdentity).toBe(expected.length > 0);
  });
});
