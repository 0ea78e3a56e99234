// upper — upper case in the root locale (https://developer.sailpoint.com/docs/extensibility/transforms/operations/upper).

import { javaUpperCase as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const upper = defineOperation({
  type: 'upper',
  doc: 'upper — upper case in the root locale',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
  generate(code) {
    return `return ${code.input} === null ? null : ${code.bind(run)}(${code.rt}.str(${code.input}));`;
  },
});
