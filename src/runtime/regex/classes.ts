// Java character classes as RE2 sets (as java.util.regex.Pattern defines them): the predefined classes, POSIX
// \p{Lower}…, java.lang.Character \p{javaLowerCase}…, Unicode blocks \p{In…}, scripts and
// categories \p{Is…}, resolved the way java.util.regex.CharPredicates names them.

/** Code point ranges plus RE2 property atoms (`\p{Lu}`), usable inside `[...]`. */
export interface CodeSet {
  ranges: Array<[number, number]>;
  props: string[];
}

const MAX = 0x10ffff;

function r(...pairs: Array<[number, number] | number>): Array<[number, number]> {
  return pairs.map((p) => (typeof p === 'number' ? [p, p] : p));
}
function set(ranges: Array<[number, number]>, props: string[] = []): CodeSet {
  return { ranges, props };
}

/** Java's predefined classes. \s is [ \t\n\x0B\f\r] in Java (RE2's \s lacks \x0B). */
export const SETS = {
  digit: set(r([0x30, 0x39])),
  space: set(r([0x09, 0x0d], 0x20)),
  word: set(r([0x30, 0x39], [0x41, 0x5a], 0x5f, [0x61, 0x7a])),
  horizontal: set(r(0x09, 0x20, 0xa0, 0x1680, 0x180e, [0x2000, 0x200a], 0x202f, 0x205f, 0x3000)),
  vertical: set(r([0x0a, 0x0d], 0x85, [0x2028, 0x2029])),
} as const;

/** POSIX classes (US-ASCII only, as Java defines them without UNICODE_CHARACTER_CLASS). */
const POSIX: Record<string, CodeSet> = {
  lower: set(r([0x61, 0x7a])),
  upper: set(r([0x41, 0x5a])),
  ascii: set(r([0x00, 0x7f])),
  alpha: set(r([0x41, 0x5a], [0x61, 0x7a])),
  digit: set(r([0x30, 0x39])),
  alnum: set(r([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a])),
  punct: set(r([0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e])),
  graph: set(r([0x21, 0x7e])),
  print: set(r([0x20, 0x7e])),
  blank: set(r(0x20, 0x09)),
  cntrl: set(r([0x00, 0x1f], 0x7f)),
  xdigit: set(r([0x30, 0x39], [0x41, 0x46], [0x61, 0x66])),
  space: set(r([0x09, 0x0d], 0x20)),
};

// Java Character.isWhitespace: space separators except no-break spaces, plus \t-\r, \x1C-\x1F.
const JAVA_WHITESPACE = set(r([0x09, 0x0d], [0x1c, 0x20], 0x1680, [0x2000, 0x2006], [0x2008, 0x200a], [0x2028, 0x2029], 0x205f, 0x3000));
const WHITE_SPACE = set(r([0x09, 0x0d], 0x20, 0x85, 0xa0, 0x1680, [0x2000, 0x200a], [0x2028, 0x2029], 0x202f, 0x205f, 0x3000));
const HEX_DIGIT = set(r([0x30, 0x39], [0x41, 0x46], [0x61, 0x66], [0xff10, 0xff19], [0xff21, 0xff26], [0xff41, 0xff46]));
const JOIN_CONTROL = set(r([0x200c, 0x200d]));

/**
 * java.lang.Character predicates and Unicode binary properties, mapped to the general
 * categories RE2 knows. Where Java adds Other_Lowercase/Other_Alphabetic code points the
 * category is the documented approximation (docs/decisions.md).
 */
const JAVA: Record<string, CodeSet> = {
  javalowercase: set([], ['\\p{Ll}']),
  javauppercase: set([], ['\\p{Lu}']),
  javatitlecase: set([], ['\\p{Lt}']),
  javaletter: set([], ['\\p{L}']),
  javadigit: set([], ['\\p{Nd}']),
  javaletterordigit: set([], ['\\p{L}', '\\p{Nd}']),
  javaalphabetic: set([], ['\\p{L}', '\\p{Nl}']),
  javawhitespace: JAVA_WHITESPACE,
  javaspacechar: set([], ['\\p{Z}']),
  javaisocontrol: set(r([0x00, 0x1f], [0x7f, 0x9f])),
  javadefined: set([[0, MAX]]),
};

const BINARY: Record<string, CodeSet> = {
  alphabetic: set([], ['\\p{L}', '\\p{Nl}']),
  letter: set([], ['\\p{L}']),
  lowercase: set([], ['\\p{Ll}']),
  uppercase: set([], ['\\p{Lu}']),
  titlecase: set([], ['\\p{Lt}']),
  digit: set([], ['\\p{Nd}']),
  punctuation: set([], ['\\p{P}']),
  control: set([], ['\\p{Cc}']),
  whitespace: WHITE_SPACE,
  white_space: WHITE_SPACE,
  hexdigit: HEX_DIGIT,
  hex_digit: HEX_DIGIT,
  joincontrol: JOIN_CONTROL,
  join_control: JOIN_CONTROL,
};

// General categories RE2 supports (Cn, unassigned, is missing from RE2's tables).
const CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);

/** Unicode blocks by Java's canonical name, lower-cased without spaces, hyphens or underscores. */
const BLOCKS: Record<string, [number, number]> = Object.fromEntries(
  `basiclatin 0 7F|latin1supplement 80 FF|latinextendeda 100 17F|latinextendedb 180 24F|ipaextensions 250 2AF|
spacingmodifierletters 2B0 2FF|combiningdiacriticalmarks 300 36F|greek 370 3FF|greekandcoptic 370 3FF|cyrillic 400 4FF|
cyrillicsupplementary 500 52F|cyrillicsupplement 500 52F|armenian 530 58F|hebrew 590 5FF|arabic 600 6FF|syriac 700 74F|
thaana 780 7BF|devanagari 900 97F|bengali 980 9FF|gurmukhi A00 A7F|gujarati A80 AFF|tamil B80 BFF|telugu C00 C7F|
kannada C80 CFF|malayalam D00 D7F|thai E00 E7F|lao E80 EFF|tibetan F00 FFF|georgian 10A0 10FF|hanguljamo 1100 11FF|
ethiopic 1200 137F|cherokee 13A0 13FF|khmer 1780 17FF|mongolian 1800 18AF|combiningdiacriticalmarksextended 1AB0 1AFF|
phoneticextensions 1D00 1D7F|combiningdiacriticalmarkssupplement 1DC0 1DFF|latinextendedadditional 1E00 1EFF|
greekextended 1F00 1FFF|generalpunctuation 2000 206F|superscriptsandsubscripts 2070 209F|currencysymbols 20A0 20CF|
combiningmarksforsymbols 20D0 20FF|combiningdiacriticalmarksforsymbols 20D0 20FF|letterlikesymbols 2100 214F|
numberforms 2150 218F|arrows 2190 21FF|mathematicaloperators 2200 22FF|miscellaneoustechnical 2300 23FF|
enclosedalphanumerics 2460 24FF|boxdrawing 2500 257F|blockelements 2580 259F|geometricshapes 25A0 25FF|
miscellaneoussymbols 2600 26FF|dingbats 2700 27BF|latinextendedc 2C60 2C7F|cyrillicextendeda 2DE0 2DFF|
cjksymbolsandpunctuation 3000 303F|hiragana 3040 309F|katakana 30A0 30FF|cjkunifiedideographsextensiona 3400 4DBF|
cjkunifiedideographs 4E00 9FFF|cyrillicextendedb A640 A69F|latinextendedd A720 A7FF|latinextendede AB30 AB6F|
hangulsyllables AC00 D7AF|highsurrogates D800 DB7F|lowsurrogates DC00 DFFF|privateusearea E000 F8FF|
cjkcompatibilityideographs F900 FAFF|alphabeticpresentationforms FB00 FB4F|arabicpresentationformsa FB50 FDFF|
variationselectors FE00 FE0F|combininghalfmarks FE20 FE2F|arabicpresentationformsb FE70 FEFF|
halfwidthandfullwidthforms FF00 FFEF|specials FFF0 FFFF|miscellaneoussymbolsandpictographs 1F300 1F5FF|
emoticons 1F600 1F64F|supplementalsymbolsandpictographs 1F900 1F9FF`
    .split('|')
    .map((row) => row.trim().split(' '))
    .map(([name, lo, hi]) => [name!, [parseInt(lo!, 16), parseInt(hi!, 16)] as [number, number]]),
);

function blockKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

/** An RE2 script name from Java's case-insensitive one: "old_italic" → "Old_Italic". */
function scriptName(name: string): string {
  return name
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('_');
}

function category(name: string): CodeSet | undefined {
  if (CATEGORIES.has(name)) return set([], [`\\p{${name}}`]);
  if (name === 'LC') return set([], ['\\p{Lu}', '\\p{Ll}', '\\p{Lt}']);
  if (name === 'LD') return set([], ['\\p{L}', '\\p{Nd}']);
  if (name === 'L1') return set([[0, 0xff]]);
  if (name === 'all') return set([[0, MAX]]);
  return undefined;
}

/**
 * Resolve the name inside \p{…}: `In<Block>`, `Is<Script|Property|Category>`, `script=`,
 * `block=`, `general_category=`, POSIX and java.lang.Character names, or a category.
 * 'unknown' is Java's "Unknown character property name"; 'unsupported' has no RE2 form.
 */
export function resolveProperty(raw: string, caseInsensitive = false): CodeSet | 'unknown' | 'unsupported' {
  const resolved = resolveName(raw);
  return caseInsensitive && typeof resolved !== 'string' ? caseInsensitiveProperty(resolved) : resolved;
}

const CASED = set([], ['\\p{Lu}', '\\p{Ll}', '\\p{Lt}']);
const ASCII_LETTERS = set(r([0x41, 0x5a], [0x61, 0x7a]));

/**
 * Java's CharPredicates under CASE_INSENSITIVE (with or without UNICODE_CASE): the case
 * properties — Lu, Ll, Lt, Lowercase, Uppercase, javaLowerCase, … — match every cased letter,
 * and POSIX Lower and Upper every ASCII letter (`(?i)\p{Ll}` matches "A").
 */
function caseInsensitiveProperty(s: CodeSet): CodeSet {
  if (s === POSIX.lower || s === POSIX.upper) return ASCII_LETTERS;
  if (s.ranges.length === 0 && s.props.length === 1 && /^\\p\{L[ult]\}$/.test(s.props[0]!)) return CASED;
  return s;
}

function resolveName(raw: string): CodeSet | 'unknown' | 'unsupported' {
  const eq = raw.indexOf('=');
  if (eq >= 0) {
    const key = raw.slice(0, eq).toLowerCase();
    const value = raw.slice(eq + 1);
    if (key === 'block' || key === 'blk') return block(value);
    if (key === 'script' || key === 'sc') return set([], [`\\p{${scriptName(value)}}`]);
    if (key === 'general_category' || key === 'gc') return category(value) ?? 'unknown';
    return 'unknown';
  }
  if (raw.startsWith('In')) return block(raw.slice(2));
  if (raw.startsWith('Is')) {
    const name = raw.slice(2);
    const cat = category(name);
    if (cat) return cat;
    const bin = BINARY[name.toLowerCase()];
    if (bin) return bin;
    if (/^[A-Za-z_]+$/.test(name)) return set([], [`\\p{${scriptName(name)}}`]);
    return 'unknown';
  }
  const posix = POSIX[raw.toLowerCase()];
  if (posix && /^[A-Z]/.test(raw)) return posix;
  if (raw.startsWith('java')) return JAVA[raw.toLowerCase()] ?? (raw === 'javaMirrored' || raw === 'javaIdeographic' ? 'unsupported' : 'unknown');
  return category(raw) ?? 'unknown';
}

function block(name: string): CodeSet | 'unknown' | 'unsupported' {
  const range = BLOCKS[blockKey(name)];
  // A real block missing from our table is refused rather than guessed (docs/decisions.md).
  return range ? set([range]) : 'unsupported';
}

/** Ranges sorted and merged: overlapping or adjacent ranges become one. */
export function normalize(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The complement of sorted, merged ranges over [0, U+10FFFF]. */
export function complement(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

/** Add the other ASCII case of every ASCII letter in the set: Java (?i) without (?u). */
export function foldAsciiCase(s: CodeSet): CodeSet {
  const extra: Array<[number, number]> = [];
  for (const [lo, hi] of s.ranges) {
    const a = Math.max(lo, 0x41);
    const b = Math.min(hi, 0x5a);
    if (a <= b) extra.push([a + 0x20, b + 0x20]);
    const c = Math.max(lo, 0x61);
    const d = Math.min(hi, 0x7a);
    if (c <= d) extra.push([c - 0x20, d - 0x20]);
  }
  if (extra.length === 0) return s;
  return { ranges: normalize([...s.ranges, ...extra]), props: s.props };
}
