// Curated attribute values for arbitraryTransform: where an attribute's JSON Schema
// says "string" but compiling demands more — a Java regex RE2 can run, a Velocity template that
// parses, a SimpleDateFormat pattern, a dateMath expression, an object filter on the searchable
// properties — values are drawn from these lists, each of which test/testing checks one by one.

import fc from './fast-check.js';

/** Java regexes (replace, replaceAll keys), paired with a replacement valid for their groups. */
export const REGEX_REPLACEMENTS: readonly (readonly [string, string])[] = [
  ['[^a-z]', ''],
  ['[^A-Za-z]', ''],
  ['\\s+', ' '],
  ['^\\s+|\\s+$', ''],
  ['-', ''],
  ["[\\-']", ''],
  ['[aeiou]', '*'],
  ['\\.', '_'],
  ['(?i)a', 'A'],
  ['\\d{3}', 'xxx'],
  ['\\p{M}', ''],
  ['[^\\p{L}]', ''],
  ['[^\\x00-\\x7F]', '?'],
  ['(\\w+)\\s+(\\w+)', '$2, $1'],
  ['(\\w+)@(.+)', '$1'],
  ['^(.)', '$1.'],
  ['\\$', '\\$\\$'],
];

/** Java regexes used as split delimiters (String.split takes a regex). */
export const SPLIT_DELIMITERS: readonly string[] = [' ', ',', '\\.', '\\|', '-', '\\s+', '@', '/', '.', '|'];

/** Names of the dynamic variables templates refer to (static, conditional, rule). */
export const TEMPLATE_VARIABLES = ['a', 'b'] as const;

/** Velocity templates over $a, $b and $identity: Java String methods, #if, #set, #foreach. */
export const TEMPLATES: readonly string[] = [
  '$a',
  '${a}-${b}',
  '$a.toLowerCase()',
  '$a.substring(0,1)$b',
  '#if($a == "x")yes#{else}no#end',
  '$!a',
  '#set($x = "y")$x',
  '$a.length()',
  "$identity.getAttribute('firstname')",
  '$identity.getName()',
  '$a.trim().toUpperCase()',
  '#foreach($p in $a.split(" "))$p.substring(0,1)#end',
  '$a.replaceAll("[^a-z]", "")',
  '$identity.getManager().getName()',
  "$a.indexOf('e')",
  '#if($a.length() > 3)long#{else}short#end',
];

/** conditional expressions ("ValueA eq ValueB", rendered over $a and $b first). */
export const CONDITIONAL_EXPRESSIONS: readonly string[] = ['$a eq $b', '$a eq Engineering', 'x eq x', 'x eq y', '$a.toLowerCase() eq $b'];

/** usernameGenerator patterns over $fn, $ln and $fi; the counter ones may only come last. */
export const USERNAME_VARIABLES = ['fn', 'ln', 'fi'] as const;
export const USERNAME_PATTERNS: readonly string[] = ['$fn.$ln', '$fi$ln', '$fn', '${fn}${ln}', '$ln.$fi'];
export const USERNAME_COUNTER_PATTERNS: readonly string[] = ['$fi$ln${uniqueCounter}', '$fn.$ln${uniqueCounter}'];

/** dateFormat formats: the named constructs and SimpleDateFormat patterns. */
export const DATE_FORMATS: readonly string[] = [
  'ISO8601', 'LDAP', 'PEOPLE_SOFT', 'EPOCH_TIME_JAVA', 'EPOCH_TIME_WIN32',
  'yyyy-MM-dd', 'MM/dd/yyyy', 'yyyyMMdd', "yyyy-MM-dd'T'HH:mm:ss", 'dd.MM.yy', 'EEE, d MMM yyyy', 'MMM yyyy', 'HH:mm',
  "yyyy-MM-dd'T'HH:mm:ss.SSSX", 'D', 'w/yyyy',
];

/** dateCompare operands besides nested transforms. */
export const DATE_OPERANDS: readonly string[] = ['now', '2020-01-01T00:00:00Z', '2030-06-15T12:00:00Z', '2026-01-15', '1999-12-31T23:59:59+01:00'];

/** accountFilter: only nativeIdentity, displayName and entitlements are searchable. */
export const ACCOUNT_FILTERS: readonly string[] = [
  '!(displayName.startsWith("SVC-"))',
  '(entitlements == true)',
  'displayName.contains("Admin")',
  'nativeIdentity.startsWith("adm-")',
  '(entitlements == false) && !(displayName.startsWith("SVC-"))',
  '(displayName.startsWithIgnoreCase("admin") || entitlements == true)',
];

/** e164phone regions libphonenumber knows. */
export const PHONE_REGIONS: readonly string[] = ['US', 'GB', 'FR', 'DE', 'NO', 'AU', 'IN', 'BR', 'JP', 'MX'];

/** The rule the platform builds in, and its three operations. */
export const UTILITY_RULE = 'Cloud Services Deployment Utility';

const DATE_MATH_UNITS = ['y', 'M', 'w', 'd', 'h', 'm', 's'] as const;

/** dateMath expressions: optional `now`, then +N/-N unit steps and /unit roundings (never by week). */
export const arbitraryDateMath: fc.Arbitrary<string> = fc
  .record({
    now: fc.boolean(),
    steps: fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 400 }), fc.constantFrom(...DATE_MATH_UNITS)).map(([sign, n, unit]) => `${sign}${n}${unit}`),
        fc.constantFrom('y', 'M', 'd', 'h', 'm', 's').map((unit) => `/${unit}`),
      ),
      { maxLength: 3 },
    ),
  })
  .map(({ now, steps }) => (now || steps.length === 0 ? 'now' : '') + steps.join(''));

/** Escape a value for a double-quoted object-filter string. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** accountPropertyFilter over a source's own keys and example values (any attribute may be queried). */
export function propertyFilters(keys: readonly string[], examples: (key: string) => readonly string[]): fc.Arbitrary<string> {
  const simple = keys.filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
  if (simple.length === 0) return fc.constant('(x.isNull())');
  return fc.constantFrom(...simple).chain((key) => {
    const values = examples(key).slice(0, 8);
    const value = values.length === 0 ? fc.constant('x') : fc.constantFrom(...values);
    return fc.oneof(
      value.map((v) => `(${key} == ${quoted(v)})`),
      value.map((v) => `!(${key} == ${quoted(v)})`),
      fc.constant(`(${key}.isNull())`),
      fc.constant(`(${key}.notNull())`),
      value.map((v) => `(${key}.startsWith(${quoted(v.slice(0, 2))}))`),
    );
  });
}
