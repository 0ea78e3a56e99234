// e164phone — the number in E.164 via libphonenumber; invalid → null (https://developer.sailpoint.com/docs/extensibility/transforms/operations/e164-phone).

import { andThen } from '../providers/maybe.js';
import { e164, isPhoneRegion } from '../runtime/locale.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const e164phone = defineOperation({
  type: 'e164phone',
  doc: 'e164phone — E.164 phone number; invalid → null',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      defaultRegion: ref.string,
    },
  }),
  compile(ctx) {
    const region = ctx.string('defaultRegion', { default: 'US' })!;
    if (region.kind === 'constant') {
      const value = region.value;
      if (!isPhoneRegion(value)) {
        throw ctx.error('COMPILE_INVALID_ATTRIBUTE', `defaultRegion ${JSON.stringify(value)} is not an ISO 3166-1 alpha-2 region libphonenumber knows`, { attribute: 'defaultRegion' });
      }
      return (input) => {
        const text = textOf(input);
        return text === null ? null : e164(text, value);
      };
    }
    return (input, ev) => {
      const text = textOf(input);
      if (text === null) return null;
      return andThen(region.evaluate(input, ev), (r) => e164(text, r === null ? 'US' : String(r)));
    };
  },
});
