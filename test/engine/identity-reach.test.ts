// What of the identity graph a template reads (engine/identity-reach.ts): the first step after
// $identity decides, and whatever the walk cannot follow reaches the whole graph.

import { describe, expect, it } from 'vitest';
import { identityReach, unionReach, IDENTITY_ONLY, MANAGER_ONLY, WHOLE_GRAPH } from '../../src/engine/identity-reach.js';
import { compileJavaRegex } from '../../src/runtime/regex/index.js';
import { compileTemplate } from '../../src/runtime/velocity/index.js';

function reach(source: string) {
  return identityReach(compileTemplate(source, { maxLength: 10_000, regex: compileJavaRegex }));
}

describe('what a template reads of the identity graph', () => {
  it.each([
    ['no $identity at all', '$firstname.toLowerCase()', IDENTITY_ONLY],
    ['the identity\'s own attributes', '$identity.attributes.department-$identity.getName()', IDENTITY_ONLY],
    ['the manager by property', '$identity.manager.attributes.networkDn', MANAGER_ONLY],
    ['the manager by method, in braces', '${identity.getManager().getName()}', MANAGER_ONLY],
    ['the manager as Velocity reads a capitalised property', '$!identity.Manager.name', MANAGER_ONLY],
    ['a manager\'s links (never loaded for a manager)', '$identity.manager.links', MANAGER_ONLY],
    ['the links (a link leads back to its identity, and so to the manager)', '#foreach($l in $identity.links)$l.getIdentity().getManager().getName()#end', WHOLE_GRAPH],
    ['links by application', '$identity.getLinksByAppIdOrName("a", null).size()', WHOLE_GRAPH],
    ['the manager and the links', '$identity.manager.name $identity.getLinks().size()', WHOLE_GRAPH],
    ['$identity alone', '#set($i = $identity)$i.manager.name', WHOLE_GRAPH],
    ['$identity as an argument', '$list.add($identity)', WHOLE_GRAPH],
    ['$identity in a string literal', '#set($s = "$identity.links")$s', WHOLE_GRAPH],
    ['$identity in a comment beside a read of its own', '## identity\n$identity.name', WHOLE_GRAPH],
    ['an index after $identity', '$identity["manager"]', WHOLE_GRAPH],
    // Each shape of reference the compiler records (CompiledTemplate.identityReads): a use of
    // $identity whole, or a mention it did not record, reads everything.
    ['a property', '$identity.name', IDENTITY_ONLY],
    ['a getter', '$identity.getAttribute("department")', IDENTITY_ONLY],
    ['a property in braces', '${identity.manager}', MANAGER_ONLY],
    ['$!identity alone', '$!identity', WHOLE_GRAPH],
    ['$identity passed to a macro', '#macro(m $p)$p.name#end#m($identity)', WHOLE_GRAPH],
    ['$identity passed to a method', '$identity.name.equals($identity)', WHOLE_GRAPH],
    ['$identity set to a variable, read only for its name', '#set($i = $identity)$i.name', WHOLE_GRAPH],
    ['#foreach over $identity', '#foreach($x in $identity)$x#end', WHOLE_GRAPH],
    ['a getter of the links in a condition', '#if($identity.getLinks().isEmpty())none#end', WHOLE_GRAPH],
    ['a macro parameter named identity beside a read of the identity', '#macro(m $identity)$identity.links#end$identity.name', WHOLE_GRAPH],
  ])('%s: %s', (_what, source, expected) => {
    expect(reach(source)).toEqual(expected);
  });

  it('the union of two reaches reads what either reads', () => {
    expect(unionReach(MANAGER_ONLY, { manager: false, links: true })).toEqual(WHOLE_GRAPH);
    expect(unionReach(IDENTITY_ONLY, MANAGER_ONLY)).toBe(MANAGER_ONLY);
    expect(unionReach(IDENTITY_ONLY, IDENTITY_ONLY)).toBe(IDENTITY_ONLY);
  });
});
