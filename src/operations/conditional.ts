// conditional — "ValueA eq ValueB" (rendered over the dynamic variables), then the positive
// or the negative condition (https://developer.sailpoint.com/docs/extensibility/transforms/operations/conditional).

import { codedError } from '../errors/index.js';
import { andThen } from '../providers/maybe.js';
import type { CompileContext, Evaluator } from '../engine/types.js';
import { needsTemplate } from '../runtime/velocity/index.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

const RESERVED = ['expression', 'positiveCondition', 'negativeCondition'] as const;
/** The only operator: `eq` as a whole word between the two operands. */
const EQ = /\s+eq\s+/;

/** Split "A eq B" into its operands, or explain why it is not such an expression. */
export function parseEquality(text: string): [string, string] | string {
  const parts = text.split(EQ);
  if (parts.length !== 2) {
    return parts.length === 1 ? 'the expression has no "eq" operator (the only one supported)' : 'the expression has more than one "eq"';
  }
  return [parts[0]!.trim(), parts[1]!.trim()];
}

function condition(ctx: CompileContext, name: string, variables: ReadonlyArray<readonly [string, Evaluator]>): Evaluator {
  const raw = ctx.attributes[name];
  // A string condition sees the dynamic variables ("$scienceBuilding"); a transform is evaluated.
  if (typeof raw === 'string') {
    return needsTemplate(raw) ? ctx.renderer(ctx.template(raw, ctx.at(name)), variables) : () => raw;
  }
  const evaluate = ctx.value(name);
  if (evaluate === undefined) throw ctx.error('SCHEMA_REQUIRED', `attribute "${name}" is required`, { attribute: name });
  return evaluate;
}

export const conditional = defineOperation({
  type: 'conditional',
  doc: 'conditional — "ValueA eq ValueB" then positive or negative condition',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      expression: ref.string,
      positiveCondition: ref.stringOrTransform,
      negativeCondition: ref.stringOrTransform,
    },
    required: ['expression', 'positiveCondition', 'negativeCondition'],
    dynamicVariables: true,
  }),
  compile(ctx) {
    const expressionAt = ctx.at('expression');
    const source = ctx.attributes.expression;
    if (typeof source !== 'string' && typeof source !== 'number') {
      throw ctx.error('SCHEMA_TYPE', 'expression must be a string "ValueA eq ValueB"', { attribute: 'expression' });
    }
    const variables = ctx.dynamicVariables(RESERVED);
    const template = ctx.template(String(source), expressionAt);
    if (template.isConstant) {
      const parsed = parseEquality(template.source);
      if (typeof parsed === 'string') throw ctx.error('COMPILE_INVALID_ATTRIBUTE', parsed, { attribute: 'expression' });
    }
    // A null operand is Java's IllegalArgumentException (the docs), not a template error.
    const checked = variables.map(([name, evaluate]) => [
      name,
      ((input, ev) =>
        andThen(evaluate(input, ev), (v) => {
          if (v === null) throw codedError('EVAL_ILLEGAL_ARGUMENT', `conditional operand $${name} is null`, { path: ctx.at(name) });
          return v;
        })) as Evaluator,
    ] as const);
    const expression = ctx.renderer(template, checked);
    const positive = condition(ctx, 'positiveCondition', variables);
    const negative = condition(ctx, 'negativeCondition', variables);
    return (input, ev) =>
      andThen(expression(input, ev), (rendered) => {
        const parsed = parseEquality(String(rendered));
        if (typeof parsed === 'string') throw codedError('EVAL_ILLEGAL_ARGUMENT', parsed, { path: expressionAt });
        // Case-sensitive (the docs: "engineering" is not "Engineering").
        return (parsed[0] === parsed[1] ? positive : negative)(input, ev);
      });
  },
  generate(code) {
    const ctx = code.compile;
    const { rt, ev } = code;
    const names = code.dynamicVariableNames(RESERVED);
    // A string condition is rendered over the dynamic variables it names (folded when it names none).
    const branch = (name: string): string => {
      const raw = ctx.attributes[name];
      if (typeof raw !== 'string') return code.value(name)!;
      if (!needsTemplate(raw)) return code.literal(raw);
      const template = ctx.template(raw, ctx.at(name));
      if (template.isConstant) return code.literal(template.source);
      const used = names.filter((n) => template.references.has(n));
      return code.render(template, used, used.map((n) => code.value(n)!));
    };
    const template = ctx.template(String(ctx.attributes.expression), ctx.at('expression'));
    const lines: string[] = [];
    let rendered: string;
    if (template.isConstant) rendered = code.literal(template.source);
    else {
      // The operands the expression names, in order; a null one is Java's IllegalArgumentException.
      const used = names.filter((n) => template.references.has(n));
      const locals = used.map((n) => {
        const v = code.local();
        lines.push(`const ${v} = ${code.value(n)!};`);
        lines.push(`if (${v} === null) throw ${rt}.error('EVAL_ILLEGAL_ARGUMENT', ${code.literal(`conditional operand $${n} is null`)}, ${code.literal(ctx.at(n))});`);
        return v;
      });
      rendered = code.render(template, used, locals);
    }
    const parsed = code.local();
    lines.push(`const ${parsed} = ${code.bind(parseEquality)}(String(${rendered}));`);
    lines.push(`if (typeof ${parsed} === 'string') throw ${rt}.error('EVAL_ILLEGAL_ARGUMENT', ${parsed}, ${code.literal(ctx.at('expression'))});`);
    lines.push(`return ${parsed}[0] === ${parsed}[1] ? ${branch('positiveCondition')} : ${branch('negativeCondition')};`);
    return lines.join('\n');
  },
});
