// Attribute values shaped like a fixture's: names with diacritics, apostrophes and
// hyphens, dates in the format the fixture uses, digit strings, lists, nulls. A value that
// depends on the person (a name, an e-mail, a uid) is drawn as a recipe and filled in once the
// person is known, so one identity's attributes and accounts name the same person and still
// shrink independently.

import fc from './fast-check.js';
import { asciiFold, FIRST_NAMES, LAST_NAMES, TENANT_NOW } from './generator/data.js';
import type { AttributeShape, StringFormat } from './shape.js';

export interface PersonName {
  readonly first: string;
  readonly last: string;
}

type Case = 'as-is' | 'upper' | 'lower';
type PersonPart = 'first' | 'last' | 'full' | 'email' | 'user-name';

/** A value, or how to make it from the person. */
export type ValueRecipe =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'person'; readonly part: PersonPart; readonly case: Case; readonly domain: string };

const PARTICLES = ["O'", "D'", "d'", 'de la ', 'van der ', 'Mac', 'Fitz'];
const firstPool = fc.constantFrom(...FIRST_NAMES.map((n) => n.name));
const lastPool = fc.constantFrom(...LAST_NAMES);

/** First names: the generator's pool (diacritics, apostrophes, hyphens), sometimes two joined by a hyphen. */
export const arbitraryFirstName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: firstPool },
  { weight: 1, arbitrary: fc.tuple(firstPool, firstPool).map(([a, b]) => `${a}-${b}`) },
);

/** Last names: the pool, double-barrelled, or after a particle ("O'", "de la ", "Mac"). */
export const arbitraryLastName: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: lastPool },
  { weight: 1, arbitrary: fc.tuple(lastPool, lastPool).map(([a, b]) => `${a}-${b}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PARTICLES), lastPool).map(([p, l]) => p + l) },
);

export const arbitraryPersonName: fc.Arbitrary<PersonName> = fc.record({ first: arbitraryFirstName, last: arbitraryLastName });

/** The user name the tenant generator would give the person (ASCII-folded first.last, lower case). */
export function userName(person: PersonName): string {
  return `${asciiFold(person.first)}.${asciiFold(person.last)}`.toLowerCase();
}

function personPart(person: PersonName, part: PersonPart, domain: string): string {
  switch (part) {
    case 'first': return person.first;
    case 'last': return person.last;
    case 'full': return `${person.first} ${person.last}`;
    case 'user-name': return userName(person);
    case 'email': return `${userName(person)}@${domain}`;
  }
}

/** Fill a recipe in for a person. */
export function applyRecipe(recipe: ValueRecipe, person: PersonName): unknown {
  if (recipe.kind === 'value') return recipe.value;
  const text = personPart(person, recipe.part, recipe.domain);
  return recipe.case === 'upper' ? text.toUpperCase() : recipe.case === 'lower' ? text.toLowerCase() : text;
}

const PERSON_FORMATS: Partial<Record<StringFormat, PersonPart>> = {
  'first-name': 'first',
  'last-name': 'last',
  'full-name': 'full',
  'user-name': 'user-name',
  email: 'email',
};

/** Text with the characters that break naive transforms: quotes, template characters, tabs, ß, İ. */
export const arbitraryAwkwardText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom('a', 'Z', 'é', 'ß', 'Ø', 'ł', 'İ', ' ', '-', "'", '"', '.', ',', '1', '$', '#', '\\', '\t'),
  maxLength: 12,
});

const DAY = 86_400_000;
const EARLIEST = Date.UTC(1990, 0, 1);
/** A calendar day between 1990 and the generator's "now", as UTC midnight (ms). */
const day = fc.integer({ min: 0, max: Math.floor((TENANT_NOW - EARLIEST) / DAY) }).map((d) => EARLIEST + d * DAY);
/** An instant to the second between 1990 and the generator's "now". */
export const arbitraryInstant: fc.Arbitrary<number> = fc
  .integer({ min: 0, max: Math.floor((TENANT_NOW - EARLIEST) / 1000) })
  .map((s) => EARLIEST + s * 1000);

const pad2 = (n: number) => String(n).padStart(2, '0');

function digitLengths(examples: readonly string[]): { minLength: number; maxLength: number } {
  const lengths = examples.filter((e) => /^\d+$/.test(e)).map((e) => e.length);
  return lengths.length === 0 ? { minLength: 1, maxLength: 8 } : { minLength: Math.min(...lengths), maxLength: Math.max(...lengths) };
}

/** A string of the attribute's format that does not depend on the person. */
function plainString(shape: AttributeShape): fc.Arbitrary<string> {
  switch (shape.format) {
    case 'iso-date-time': return arbitraryInstant.map((ms) => new Date(ms).toISOString());
    case 'date-ymd': return day.map((ms) => new Date(ms).toISOString().slice(0, 10));
    case 'date-mdy':
      return day.map((ms) => {
        const d = new Date(ms);
        return `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${d.getUTCFullYear()}`;
      });
    case 'digits': return fc.string({ unit: fc.constantFrom(...'0123456789'), ...digitLengths(shape.examples) });
    default:
      // Mostly values the fixture has (department names a lookup table keys on), sometimes awkward text.
      return shape.examples.length === 0
        ? arbitraryAwkwardText
        : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...shape.examples) }, { weight: 1, arbitrary: arbitraryAwkwardText });
  }
}

function domainOf(shape: AttributeShape): string {
  const example = shape.examples.find((e) => e.includes('@'));
  return example === undefined ? 'example.com' : example.slice(example.indexOf('@') + 1);
}

/** A string recipe: the person's name in some case, or a plain string of the format. */
function stringRecipe(shape: AttributeShape): fc.Arbitrary<ValueRecipe> {
  const part = PERSON_FORMATS[shape.format];
  if (part === undefined) return plainString(shape).map((value): ValueRecipe => ({ kind: 'value', value }));
  const casing = part === 'email' || part === 'user-name' ? fc.constant<Case>('as-is') : fc.constantFrom<Case>('as-is', 'as-is', 'as-is', 'upper', 'lower');
  const domain = domainOf(shape);
  return casing.map((c): ValueRecipe => ({ kind: 'person', part, case: c, domain }));
}

/** A recipe for one attribute: one of the kinds the fixture showed for it (null included). */
export function attributeRecipe(shape: AttributeShape): fc.Arbitrary<ValueRecipe> {
  const value = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((v): ValueRecipe => ({ kind: 'value', value: v }));
  const choices: fc.WeightedArbitrary<ValueRecipe>[] = [];
  for (const kind of shape.kinds) {
    switch (kind) {
      case 'null': choices.push({ weight: 1, arbitrary: fc.constant({ kind: 'value', value: null }) }); break;
      case 'string': choices.push({ weight: 4, arbitrary: stringRecipe(shape) }); break;
      case 'number': {
        const range = shape.numbers ?? { min: 0, max: 100, integers: true };
        const numbers = range.integers ? fc.integer({ min: range.min, max: range.max }) : fc.double({ min: range.min, max: range.max, noNaN: true });
        choices.push({ weight: 4, arbitrary: value(numbers) });
        break;
      }
      case 'boolean': choices.push({ weight: 4, arbitrary: value(fc.boolean()) }); break;
      case 'list':
        choices.push({ weight: 4, arbitrary: value(fc.array(plainString(shape), { maxLength: Math.max(1, shape.maxItems) })) });
        break;
    }
  }
  return choices.length === 0 ? fc.constant({ kind: 'value', value: null }) : fc.oneof(...choices);
}

/** Recipes for every key of a record shape; optional keys may be left out. */
export function recordRecipe(shapes: Readonly<Record<string, AttributeShape>>): fc.Arbitrary<Record<string, ValueRecipe>> {
  const keys = Object.keys(shapes);
  const arbitraries = Object.fromEntries(keys.map((k) => [k, attributeRecipe(shapes[k]!)]));
  return fc.record(arbitraries, { requiredKeys: keys.filter((k) => !shapes[k]!.optional) }) as fc.Arbitrary<Record<string, ValueRecipe>>;
}

/** Fill in every recipe of a record. */
export function applyRecord(recipes: Readonly<Record<string, ValueRecipe>>, person: PersonName): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, recipe] of Object.entries(recipes)) out[key] = applyRecipe(recipe, person);
  return out;
}
