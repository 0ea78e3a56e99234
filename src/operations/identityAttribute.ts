// identityAttribute — an attribute of the identity in the context (https://developer.sailpoint.com/docs/extensibility/transforms/operations/identity-attribute).

import { codedError } from '../errors/index.js';
import { andThen } from '../providers/maybe.js';
import type { Value } from '../engine/types.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const identityAttribute = defineOperation({
  type: 'identityAttribute',
  doc: 'identityAttribute — an attribute of the identity in the context',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      name: ref.string,
    },
    required: ['name'],
  }),
  compile(ctx) {
    const name = ctx.string('name', { required: true })!;
    const pointer = ctx.pointer;
    return (input, ev) => {
      const identity = ev.identity;
      if (identity === null) throw codedError('EVAL_NO_IDENTITY', 'identityAttribute reads the identity, and none was given', { path: pointer });
      const read = (attribute: string): Value => {
        // Own members only: a name such as valueOf or constructor must not read Object.prototype.
        const v = Object.prototype.hasOwnProperty.call(identity.attributes, attribute) ? identity.attributes[attribute] : undefined;
        if (v !== undefined && v !== null) return v as Value;
        // uid is the identity's user name; fixtures keep it as the identity's name.
        return attribute === 'uid' ? identity.name : null;
      };
      return name.kind === 'constant' ? read(name.value) : andThen(name.evaluate(input, ev), (n) => (n === null ? null : read(String(n))));
    };
  },
  // Inlined as a node of the generated function; the identity read stays in the closure.
  generate(code) {
    return `return ${code.sync(`${code.bind(code.closure)}(${code.input}, ${code.ev})`)};`;
  },
});
