// Which identities an impact report shows, and by what name. Examples are kept one per distinct
// change first (before → after): a change that moves 43 identities to one value must not fill
// every slot and hide the 8 that move to another. Their names are read once the run is over,
// for the few identities kept: from identities.json, streamed (a tenant of millions is never
// loaded for a handful of names), or from the tenant's API.

import { join } from 'node:path';
import type { TenantProviders } from '../providers/tenant/index.js';
import { identityHead } from '../refresh/fixture-stream/element-heads.js';
import { JsonArrayReader, parseObjectElement } from '../refresh/fixture-stream/json-array-reader.js';
import type { Example, Outcome } from './types.js';

/** The change an example shows, as one comparable key. */
function changeOf(example: Example): string {
  const side = (o: Outcome | null) => (o === null ? 'absent' : 'error' in o ? `error ${o.error.code}` : JSON.stringify(o.value));
  return `${side(example.before)} → ${side(example.after)}`;
}

/**
 * Keep `example` in `list` (at most `max`): while there is room, every example; once full, an
 * example of a change the list does not show yet takes the place of the latest example of a
 * change shown more than once.
 */
export function keepExample(list: Example[], example: Example, max: number): void {
  if (list.length < max) {
    list.push(example);
    return;
  }
  const change = changeOf(example);
  const shown = list.map(changeOf);
  if (shown.includes(change)) return;
  for (let i = list.length - 1; i >= 0; i--) {
    if (shown.indexOf(shown[i]!) !== i) {
      list.splice(i, 1);
      list.push(example);
      return;
    }
  }
}

/** Set each example's `identityName`, reading only the identities the examples name. */
export async function nameExamples(source: { fixtures: string } | { tenant: TenantProviders }, examples: readonly Example[]): Promise<void> {
  const wanted = new Set(examples.map((e) => e.identityId));
  if (wanted.size === 0) return;
  const names = 'fixtures' in source ? namesInFixtures(source.fixtures, wanted) : await namesInTenant(source.tenant, wanted);
  for (const example of examples) {
    const name = names.get(example.identityId);
    if (name !== undefined) example.identityName = name;
  }
}

function namesInFixtures(dir: string, wanted: ReadonlySet<string>): Map<string, string> {
  const file = join(dir, 'identities.json');
  const names = new Map<string, string>();
  const reader = new JsonArrayReader(file);
  try {
    for (let element = reader.next(), index = 0; element !== null && names.size < wanted.size; element = reader.next(), index++) {
      if (!wanted.has(identityHead(file, element, index).id)) continue;
      const identity = parseObjectElement(file, element, index);
      if (typeof identity.name === 'string') names.set(identity.id as string, identity.name);
    }
  } finally {
    reader.close();
  }
  return names;
}

async function namesInTenant(tenant: TenantProviders, wanted: ReadonlySet<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of wanted) {
    const identity = await tenant.identities.getIdentity(id);
    if (identity) names.set(id, identity.name);
  }
  return names;
}
