// What an operation's compile step demands beyond its JSON Schema (for arbitraryTransform):
// per type, the attributes whose valid values are curated (regexes, templates, formats,
// filters, ranges) or depend on each other (a source and its attribute keys, a regex and its
// replacement, the dynamic variables a template names). Types not listed need only the schema.

import fc from './fast-check.js';
import type { TenantShape } from './shape.js';
import {
  ACCOUNT_FILTERS,
  arbitraryDateMath,
  CONDITIONAL_EXPRESSIONS,
  DATE_FORMATS,
  DATE_OPERANDS,
  PHONE_REGIONS,
  propertyFilters,
  REGEX_REPLACEMENTS,
  SPLIT_DELIMITERS,
  TEMPLATE_VARIABLES,
  TEMPLATES,
  USERNAME_COUNTER_PATTERNS,
  USERNAME_PATTERNS,
  USERNAME_VARIABLES,
  UTILITY_RULE,
} from './curated.js';
import { looseBoolean, looseInteger, orNested, safeText, type NestedArbitrary } from './transform-schema.js';

export interface SemanticsContext {
  readonly shape: TenantShape;
  readonly nested: NestedArbitrary;
  /** Names `reference` may use. */
  readonly referenceNames: readonly string[];
  /** Rules registered on the engine that `rule` may call. */
  readonly ruleNames: readonly string[];
}

export interface TypeSemantics {
  /** Attributes drawn from these instead of their schema. */
  readonly attributes?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Attributes made together (merged into the rest); their keys are left out of the schema walk. */
  readonly together?: { readonly keys: readonly string[]; readonly arbitrary: fc.Arbitrary<Record<string, unknown>> };
}

type SemanticsFactory = (ctx: SemanticsContext) => TypeSemantics;

/** Optional dynamic variables (ref.value: a literal or a nested transform) named `names`. */
function variables(names: readonly string[], nested: NestedArbitrary): fc.Arbitrary<Record<string, unknown>> {
  const value = orNested(safeText, nested);
  return fc.record(Object.fromEntries(names.map((n) => [n, value])), { requiredKeys: [] });
}

function merged(...parts: fc.Arbitrary<Record<string, unknown>>[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...parts).map((records) => Object.assign({}, ...records) as Record<string, unknown>);
}

const pad: SemanticsFactory = () => ({ attributes: { length: looseInteger(0, 12), padding: fc.constantFrom(' ', '0', '*', 'ab', '') } });
const random: SemanticsFactory = () => ({ attributes: { length: looseInteger(1, 40) } });

/** One of the four ways accountAttribute names a source, the source's keys for the rest. */
const accountAttribute: SemanticsFactory = ({ shape }) => {
  const keys = ['sourceName', 'sourceId', 'applicationName', 'applicationId', 'attributeName', 'accountSortAttribute', 'accountPropertyFilter'];
  const onSource = fc.constantFrom(...shape.sources).chain((s) => {
    const source = s.source;
    const attributeKeys = Object.keys(s.attributes);
    const attribute = attributeKeys.length === 0 ? safeText.filter((t) => t !== '') : fc.constantFrom(...attributeKeys);
    const ref = fc.constantFrom<Record<string, string>>(
      { sourceName: source.name },
      { sourceId: source.id },
      { applicationName: source.applicationName ?? `${source.name} [source]` },
      { applicationId: source.externalId ?? source.id },
    );
    const optional = fc.record(
      {
        accountSortAttribute: fc.oneof(fc.constant('created'), attribute),
        accountPropertyFilter: propertyFilters(attributeKeys, (k) => s.attributes[k]?.examples ?? []),
      },
      { requiredKeys: [] },
    );
    return merged(ref, fc.record({ attributeName: attribute }), optional);
  });
  return { attributes: { accountFilter: fc.constantFrom(...ACCOUNT_FILTERS) }, together: { keys, arbitrary: onSource } };
};

const condition = (nested: NestedArbitrary) => orNested(fc.oneof(safeText, fc.constantFrom('$a', '${b}!')), nested);

/** The Cloud Services Deployment Utility's three operations, and the engine's registered rules. */
const rule: SemanticsFactory = ({ shape, nested, ruleNames }) => {
  const identityKeys = ['uid', ...Object.keys(shape.identityAttributes)];
  const utility = (operation: string, rest: Record<string, fc.Arbitrary<unknown>>) =>
    fc.record({ name: fc.constant(UTILITY_RULE), operation: fc.constant(operation), ...rest });
  const choices: fc.Arbitrary<Record<string, unknown>>[] = [
    merged(
      utility('generateRandomString', { length: looseInteger(1, 40) }),
      fc.record({ includeNumbers: looseBoolean, includeSpecialChars: looseBoolean }, { requiredKeys: [] }),
    ),
    utility('getEndOfString', { numChars: looseInteger(0, 8) }),
    utility('getReferenceIdentityAttribute', { uid: fc.constantFrom('manager', 'corporate.admin'), attributeName: fc.constantFrom(...identityKeys) }),
  ];
  if (ruleNames.length > 0) choices.push(merged(fc.record({ name: fc.constantFrom(...ruleNames) }), variables(TEMPLATE_VARIABLES, nested)));
  return { together: { keys: ['name', 'operation'], arbitrary: fc.oneof(...choices) } };
};

/** Patterns in order, the counter pattern (if any) last, as the docs require. */
const usernamePatterns = fc
  .tuple(fc.subarray([...USERNAME_PATTERNS], { maxLength: 2 }), fc.option(fc.constantFrom(...USERNAME_COUNTER_PATTERNS), { nil: undefined }))
  .map(([plain, counter]) => (counter === undefined ? plain : [...plain, counter]))
  .filter((patterns) => patterns.length > 0);

export const SEMANTICS: Readonly<Record<string, SemanticsFactory>> = {
  accountAttribute,
  conditional: ({ nested }) => ({
    attributes: { expression: fc.constantFrom(...CONDITIONAL_EXPRESSIONS), positiveCondition: condition(nested), negativeCondition: condition(nested) },
    together: { keys: TEMPLATE_VARIABLES, arbitrary: variables(TEMPLATE_VARIABLES, nested) },
  }),
  dateCompare: ({ nested }) => ({
    attributes: { firstDate: orNested(fc.constantFrom(...DATE_OPERANDS), nested), secondDate: orNested(fc.constantFrom(...DATE_OPERANDS), nested) },
  }),
  dateFormat: () => ({ attributes: { inputFormat: fc.constantFrom(...DATE_FORMATS), outputFormat: fc.constantFrom(...DATE_FORMATS) } }),
  dateMath: () => ({ attributes: { expression: arbitraryDateMath } }),
  e164phone: () => ({ attributes: { defaultRegion: fc.constantFrom(...PHONE_REGIONS) } }),
  identityAttribute: ({ shape }) => ({ attributes: { name: fc.constantFrom('uid', ...Object.keys(shape.identityAttributes)) } }),
  leftPad: pad,
  rightPad: pad,
  lookup: ({ shape, nested }) => {
    // Keys a fixture identity's attributes may match, so that lookups hit as well as miss.
    const examples = Object.values(shape.identityAttributes).flatMap((a) => a.examples.slice(0, 4));
    const key = examples.length === 0 ? safeText : fc.oneof(fc.constantFrom(...examples), safeText);
    const value = orNested(safeText, nested);
    return { attributes: { table: fc.tuple(fc.dictionary(key, value, { maxKeys: 4 }), fc.option(value, { nil: undefined })).map(([t, d]) => (d === undefined ? t : { ...t, default: d })) } };
  },
  randomAlphaNumeric: random,
  randomNumeric: random,
  reference: ({ referenceNames }) => ({ attributes: { id: fc.constantFrom(...referenceNames) } }),
  replace: () => ({
    together: { keys: ['regex', 'replacement'], arbitrary: fc.constantFrom(...REGEX_REPLACEMENTS).map(([regex, replacement]) => ({ regex, replacement })) },
  }),
  replaceAll: () => ({ attributes: { table: fc.subarray([...REGEX_REPLACEMENTS], { maxLength: 3 }).map((pairs) => Object.fromEntries(pairs)) } }),
  rule,
  split: ({ nested }) => ({ attributes: { delimiter: fc.constantFrom(...SPLIT_DELIMITERS), index: orNested(looseInteger(0, 3), nested) } }),
  static: ({ nested }) => ({
    attributes: { value: orNested(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TEMPLATES) }, { weight: 1, arbitrary: safeText }), nested) },
    together: { keys: TEMPLATE_VARIABLES, arbitrary: variables(TEMPLATE_VARIABLES, nested) },
  }),
  substring: ({ nested }) => ({
    attributes: { begin: orNested(looseInteger(-1, 4), nested), end: looseInteger(-1, 8), beginOffset: looseInteger(0, 2), endOffset: looseInteger(0, 2) },
  }),
  usernameGenerator: ({ nested }) => ({
    attributes: { patterns: usernamePatterns, cloudMaxSize: looseInteger(1, 30), cloudMaxUniqueChecks: looseInteger(1, 50) },
    together: { keys: USERNAME_VARIABLES, arbitrary: variables(USERNAME_VARIABLES, nested) },
  }),
};
