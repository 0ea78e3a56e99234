// lower — lower case in the root locale (https://developer.sailpoint.com/docs/extensibility/transforms/operations/lower).

import { javaLowerCase as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const lower = defineOperation({
  type: 'lower',
  doc: 'lower — lower case in the root locale',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
  generate(code) {
    return `return ${code.input} === null ? null : ${code.bind(run)}(${code.rt}.str(${code.input}));`;
  },
});
