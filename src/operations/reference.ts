// §4 reference — evaluate a saved transform by name, "just as if the logic were contained directly within this transform". Reference: ../shared/reference/transforms.md.

import { andThen } from '../engine/maybe.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const reference = defineOperation({
  type: 'reference',
  doc: '§4 reference — evaluate the transform whose name is attributes.id, passing this input as its implicit input',
  attributesRequired: false,
  attributesSchema: attributesSchema({ properties: { id: ref.string }, required: ['id'] }),
  compile(ctx) {
    const name = ctx.string('id', { required: true })!;
    const pointer = ctx.at('id');
    return (input, ev) => {
      const target = name.kind === 'constant' ? name.value : name.evaluate(input, ev);
      return andThen(target, (n) => {
        const resolvedName = String(n);
        const inner = ev.enterReference(resolvedName);
        return andThen(ev.resolveTransform(resolvedName, pointer), (compiled) => compiled.evaluator(input, inner));
      });
    };
  },
});
