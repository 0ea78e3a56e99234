// displayName — (preferredName, else given name) + " " + family name of the identity (https://developer.sailpoint.com/docs/extensibility/transforms/operations/display-name).

import { codedError } from '../errors/index.js';
import { toJavaString } from '../runtime/java-string.js';
import { attributesSchema, defineOperation } from './spec.js';

function attribute(attributes: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = attributes[name];
    if (v !== null && v !== undefined && toJavaString(v).trim() !== '') return toJavaString(v);
  }
  return undefined;
}

export const displayName = defineOperation({
  type: 'displayName',
  doc: 'displayName — (preferredName ?: given name) + " " + family name of the identity',
  // The API rejects a displayName without attributes (community t/76828); the docs show {"input":"input"}.
  attributesRequired: true,
  attributesSchema: attributesSchema({}),
  compile(ctx) {
    const pointer = ctx.pointer;
    return (_input, ev) => {
      if (ev.identity === null) throw codedError('EVAL_NO_IDENTITY', 'displayName reads the identity, and none was given', { path: pointer });
      const attrs = ev.identity.attributes;
      // The identity model's system names are firstname/lastname; givenName/familyName are accepted too.
      const first = attribute(attrs, 'preferredName') ?? attribute(attrs, 'firstname', 'givenName');
      const last = attribute(attrs, 'lastname', 'familyName');
      const parts = [first, last].filter((p): p is string => p !== undefined);
      return parts.length === 0 ? null : parts.join(' ');
    };
  },
});
