// normalizeNames (https://developer.sailpoint.com/docs/extensibility/transforms/operations/name-normalizer): the documented Name Normalizer algorithm —
// Apache WordUtils.capitalizeFully with the delimiters space, hyphen and apostrophe, the Mc/Mac
// patronymic rule, and the particle / Roman-numeral replacements. How the one algorithm
// reproduces every documented pair (and the tenant's "mac-donalds" → "Mac-donalds") is
// explained in docs/decisions.md.

import { javaLowerCase, javaTrim, javaUpperCase } from './java-string.js';

const DELIMITERS = new Set([' ', '-', "'"]);

/** Java \b: letters, digits and '_' are word characters, in every script. */
const WORD = String.raw`[\p{L}\p{N}\p{M}_]`;
const boundary = (word: string): RegExp => new RegExp(`(?<!${WORD})${word}(?!${WORD})`, 'gu');

// The patterns are built on first use: Unicode-property classes cost about 5 ms to construct,
// which every command loading the operations would otherwise pay at start-up.
let patterns: { replacements: ReadonlyArray<readonly [RegExp, string]>; patronymic: RegExp } | undefined;
function namePatterns(): { replacements: ReadonlyArray<readonly [RegExp, string]>; patronymic: RegExp } {
  return (patterns ??= {
    /**
     * The replacements, in the documented order: particles lower case, Roman numerals upper case,
     * and a detached "Mc " glued to the following word ("NEIL MC GLENNON" → "Neil McGlennon").
     */
    replacements: [
      [boundary('Von'), 'von'],
      [boundary('Del'), 'del'],
      [boundary('Of'), 'of'],
      [boundary('De'), 'de'],
      [boundary('La'), 'la'],
      [boundary('Y'), 'y'],
      [boundary('Iv'), 'IV'],
      [boundary('Iii'), 'III'],
      [boundary('Ii'), 'II'],
      [new RegExp(`(?<!${WORD})Mc (?=${WORD})`, 'gu'), 'Mc'],
    ],
    /**
     * \b(Mc|Mac) after capitalization, with the rest of its space-delimited word up to the next
     * word-initial Mc/Mac ("Mcdonald-Mcrae" has two).
     */
    patronymic: new RegExp(`(?<!${WORD})(Mc|Mac)([^ ]*?)(?=(?<!${WORD})(?:Mc|Mac)|[ ]|$)`, 'gu'),
  });
}

/** Character.toTitleCase of one code point (upper case except the four Latin digraphs). */
function titleCase(ch: string): string {
  switch (ch) {
    case 'ǆ': case 'ǅ': case 'Ǆ': return 'ǅ';
    case 'ǉ': case 'ǈ': case 'Ǉ': return 'ǈ';
    case 'ǌ': case 'ǋ': case 'Ǌ': return 'ǋ';
    case 'ǳ': case 'ǲ': case 'Ǳ': return 'ǲ';
    default: {
      const upper = javaUpperCase(ch);
      // toTitleCase maps one char to one char: ß stays ß, ŉ stays ŉ.
      return [...upper].length === 1 ? upper : ch;
    }
  }
}

/**
 * WordUtils.capitalizeFully(str, delimiters): lower-case everything, then title-case the first
 * character and every character that follows a delimiter.
 */
export function capitalizeFully(str: string, delimiters: ReadonlySet<string> = DELIMITERS): string {
  let out = '';
  let capitalizeNext = true;
  for (const ch of javaLowerCase(str)) {
    if (delimiters.has(ch)) {
      out += ch;
      capitalizeNext = true;
    } else if (capitalizeNext) {
      out += titleCase(ch);
      capitalizeNext = false;
    } else {
      out += ch;
    }
  }
  return out;
}

const WHITESPACE_ONLY: ReadonlySet<string> = new Set([' ']);

/**
 * After Mc/Mac, the rest of that space-delimited word is capitalized again with only the space
 * as delimiter: "Mcglennon" → "McGlennon", "Mackenna" → "MacKenna", and a hyphen right after
 * the prefix no longer starts a capitalized part: "Mac-Donalds" → "Mac-donalds" (the tenant's
 * answer in vscode-sailpoint-identitynow #73).
 */
function patronymics(name: string): string {
  return name.replace(namePatterns().patronymic, (_m: string, prefix: string, rest: string) => prefix + capitalizeFully(rest, WHITESPACE_ONLY));
}

/**
 * normalizeNames: null, empty and blank inputs give null (StringUtils.trimToNull); otherwise the
 * capitalized, patronymic-aware, particle-corrected name.
 */
export function normalizeNames(input: string | null): string | null {
  if (input === null) return null;
  const trimmed = javaTrim(input);
  if (trimmed === '') return null;
  let name = patronymics(capitalizeFully(trimmed));
  for (const [pattern, replacement] of namePatterns().replacements) name = name.replace(pattern, replacement);
  return name;
}
