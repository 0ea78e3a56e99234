// iso3166 — a country code or name in alpha2, alpha3 or numeric format; invalid → null (https://developer.sailpoint.com/docs/extensibility/transforms/operations/iso3166).

import { ISO3166_FORMATS, iso3166 as convert, type Iso3166Format } from '../runtime/locale.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const iso3166 = defineOperation({
  type: 'iso3166',
  doc: 'iso3166 — country code in alpha2, alpha3 or numeric format',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      format: { type: 'string', enum: ['alpha2', 'alpha3', 'numeric'] },
    },
  }),
  compile(ctx) {
    const raw = ctx.attributes.format ?? 'alpha2';
    if (typeof raw !== 'string' || !(ISO3166_FORMATS as readonly string[]).includes(raw)) {
      throw ctx.error('COMPILE_INVALID_ATTRIBUTE', `format must be alpha2, alpha3 or numeric, got ${JSON.stringify(raw)}`, { attribute: 'format' });
    }
    const format = raw as Iso3166Format;
    return (input) => {
      const text = textOf(input);
      return text === null ? null : convert(text, format);
    };
  },
});
