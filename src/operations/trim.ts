// trim — Java String.trim (characters <= U+0020) (https://developer.sailpoint.com/docs/extensibility/transforms/operations/trim).

import { javaTrim as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const trim = defineOperation({
  type: 'trim',
  doc: 'trim — Java String.trim (characters <= U+0020)',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
  generate(code) {
    return `return ${code.input} === null ? null : ${code.bind(run)}(${code.rt}.str(${code.input}));`;
  },
});
