// Country, language and phone-number normalisation of iso3166, rfc5646 and e164phone
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/): i18n-iso-countries
// for ISO 3166-1, Intl.Locale + Intl.DisplayNames for the rfc5646 names and ISO 639-2 codes,
// libphonenumber-js for E.164.

import { createRequire } from 'node:module';
import type countriesModule from 'i18n-iso-countries';
import type * as phoneModule from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

// The country and phone tables are large: they load on first use, so that commands that never
// meet iso3166 or e164phone (validate, most refreshes) do not pay for them at start-up.
const require = createRequire(import.meta.url);
let countriesLoaded: typeof countriesModule | undefined;
let phoneLoaded: typeof phoneModule | undefined;
function countriesLib(): typeof countriesModule {
  return (countriesLoaded ??= require('i18n-iso-countries') as typeof countriesModule);
}
function phoneLib(): typeof phoneModule {
  return (phoneLoaded ??= require('libphonenumber-js/max') as typeof phoneModule);
}

// ---------------------------------------------------------------- iso3166

export type Iso3166Format = 'alpha2' | 'alpha3' | 'numeric';
export const ISO3166_FORMATS: readonly Iso3166Format[] = ['alpha2', 'alpha3', 'numeric'];

let countryNames: Map<string, string> | undefined;

/** Every country name the package knows, in every language it ships; English wins a clash. */
function countryNameIndex(): Map<string, string> {
  if (countryNames) return countryNames;
  const index = new Map<string, string>();
  const langs = ['en', ...countriesLib().langs().filter((l) => l !== 'en')];
  for (const lang of langs) {
    for (const [alpha2, names] of Object.entries(countriesLib().getNames(lang, { select: 'all' }))) {
      for (const name of names) {
        const key = name.toLocaleLowerCase('en');
        if (!index.has(key)) index.set(key, alpha2);
      }
    }
  }
  countryNames = index;
  return index;
}

/** The alpha-2 code of an alpha-2, alpha-3 or numeric code, or an English or native name. */
export function countryAlpha2(input: string): string | undefined {
  const text = input.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    return countriesLib().isValid(code) ? code : undefined;
  }
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = countriesLib().alpha3ToAlpha2(text.toUpperCase());
    if (code) return code;
  }
  if (/^\d{1,3}$/.test(text)) return countriesLib().numericToAlpha2(text.padStart(3, '0'));
  return countryNameIndex().get(text.toLocaleLowerCase('en'));
}

/** iso3166: the country in the requested format (numeric as a 3-digit string), null when unknown. */
export function iso3166(input: string, format: Iso3166Format = 'alpha2'): string | null {
  const alpha2 = countryAlpha2(input);
  if (alpha2 === undefined) return null;
  if (format === 'alpha2') return alpha2;
  const out = format === 'alpha3' ? countriesLib().alpha2ToAlpha3(alpha2) : countriesLib().alpha2ToNumeric(alpha2);
  return out ?? null;
}

// ---------------------------------------------------------------- e164phone

/** Whether libphonenumber knows `region` (ISO 3166-1 alpha-2, any case). */
export function isPhoneRegion(region: string): boolean {
  return phoneLib().isSupportedCountry(region.toUpperCase());
}

/**
 * e164phone: the number in E.164 (`+15127772222`), parsed with `defaultRegion` when it has no
 * international prefix; null when it does not parse or is not a valid number for its region
 * (PhoneNumberUtil.isValidNumber, full metadata).
 */
export function e164(input: string, defaultRegion = 'US'): string | null {
  const region = defaultRegion.toUpperCase();
  if (!phoneLib().isSupportedCountry(region)) return null;
  const number = phoneLib().parsePhoneNumberFromString(input, region as CountryCode);
  return number !== undefined && number.isValid() ? number.number : null;
}

// ---------------------------------------------------------------- rfc5646

/** Java's Locale keeps the withdrawn ISO 639 codes: Locale("he").toString() is "iw". */
const JAVA_LEGACY_LANGUAGE: Readonly<Record<string, string>> = { he: 'iw', id: 'in', yi: 'ji' };

interface LocaleIndex {
  languages: Map<string, string>;
  regions: Map<string, string>;
  scripts: Map<string, string>;
}

let localeIndex: LocaleIndex | undefined;
let threeLetterLanguages: Map<string, string> | undefined;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** ISO 3166 full names put a form of state first: "the Principality of Monaco" is Monaco. */
const FORM_OF_STATE = /^(the )?((islamic|federal|democratic|people's|united|socialist|plurinational|bolivarian) )*(republic|principality|kingdom|state|commonwealth|federation|sultanate|grand duchy|union) of (the )?/;

/**
 * How names are compared: case, accents (Māori = Maori), "&" vs "and", spaces and punctuation
 * (Viet Nam = Vietnam, U.A.E. = UAE) are ignored, and a leading form of state is dropped.
 */
function key(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase('en')
    .replace(FORM_OF_STATE, '')
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function codes(length: 2 | 3, upper: boolean): string[] {
  const out: string[] = [];
  const build = (prefix: string): void => {
    if (prefix.length === length) {
      out.push(upper ? prefix.toUpperCase() : prefix);
      return;
    }
    for (const c of ALPHABET) build(prefix + c);
  };
  build('');
  return out;
}

// Built on first use: the two DisplayNames cost about 25 ms, which every command would pay at start-up.
let languageDisplayNames: { long: Intl.DisplayNames; short: Intl.DisplayNames } | undefined;
function languageDisplay(): { long: Intl.DisplayNames; short: Intl.DisplayNames } {
  return (languageDisplayNames ??= {
    long: new Intl.DisplayNames('en', { type: 'language', fallback: 'none', style: 'long' }),
    short: new Intl.DisplayNames('en', { type: 'language', fallback: 'none', style: 'short' }),
  });
}

function put(map: Map<string, string>, name: string | undefined, code: string): void {
  if (name !== undefined && !map.has(key(name))) map.set(key(name), code);
}

/** English names (long and short styles) of every canonical language code of `length` letters. */
function languageNames(length: 2 | 3): Map<string, string> {
  const map = new Map<string, string>();
  for (const code of codes(length, false)) {
    const long = languageDisplay().long.of(code);
    // Only canonical codes: "iw" names Hebrew too, but the code we start from is "he".
    if (long === undefined || Intl.getCanonicalLocales(code)[0] !== code) continue;
    put(map, long, code);
    put(map, languageDisplay().short.of(code), code);
  }
  return map;
}

/**
 * English names of the languages with a two-letter code, every region and the common scripts,
 * built once on first use (about 50 ms). Languages that only have a three-letter code (Konkani,
 * Syriac) are looked up in a second index built on the first miss.
 */
function buildLocaleIndex(): LocaleIndex {
  if (localeIndex) return localeIndex;
  const regions = new Map<string, string>();
  const scripts = new Map<string, string>();
  for (const style of ['long', 'short'] as const) {
    const region = new Intl.DisplayNames('en', { type: 'region', fallback: 'none', style });
    for (const code of codes(2, true)) {
      // Withdrawn codes (DD, YD, RH…) show their successor's name; keep the current code only.
      if (regionIsCanonical(code)) put(regions, region.of(code), code);
    }
  }
  // ISO 3166 English names and aliases (Viet Nam, Czech Republic, Brunei Darussalam, …).
  for (const [alpha2, names] of Object.entries(countriesLib().getNames('en', { select: 'all' }))) {
    for (const name of names) put(regions, name, alpha2);
  }
  const script = new Intl.DisplayNames('en', { type: 'script', fallback: 'none' });
  for (const code of ['Latn', 'Cyrl', 'Arab', 'Hans', 'Hant', 'Grek', 'Hebr', 'Deva', 'Beng', 'Guru', 'Mong', 'Tfng', 'Vaii']) {
    put(scripts, script.of(code), code);
  }
  localeIndex = { languages: languageNames(2), regions, scripts };
  return localeIndex;
}

function languageByName(index: LocaleIndex, name: string): string | undefined {
  const k = key(name);
  const found = index.languages.get(k);
  if (found !== undefined) return found;
  threeLetterLanguages ??= languageNames(3);
  return threeLetterLanguages.get(k);
}

/** An ISO 639-2 (or 639-1) code, canonicalized by CLDR's aliases to the language Java would name. */
function languageFromCode(text: string): string | undefined {
  if (!/^[A-Za-z]{2,3}$/.test(text)) return undefined;
  let canonical: string;
  try {
    canonical = new Intl.Locale(text.toLowerCase()).language;
  } catch {
    return undefined;
  }
  const name = languageDisplay().long.of(canonical);
  return name === undefined ? undefined : canonical;
}

const NAME = /^([^()]+?)\s*(?:\(([^()]+)\))?\s*(?:\(([^()]+)\))?$/;

/**
 * rfc5646: an ISO 639-2 three-letter code (`SPA`) or an English "Language (Script) (Region)"
 * name (`Spanish (Mexico)`) → the Java Locale.toString() form the published table uses
 * (`es`, `es_MX`, `az_AZ_#Cyrl`, legacy `iw`/`in`/`ji`); null when it is neither. Case-insensitive.
 */
export function rfc5646(input: string): string | null {
  const text = input.trim();
  if (/^[A-Za-z]{3}$/.test(text)) {
    const code = languageFromCode(text);
    if (code !== undefined) return JAVA_LEGACY_LANGUAGE[code] ?? code;
  }
  const m = NAME.exec(text);
  if (!m) return null;
  const index = buildLocaleIndex();
  const parts = [m[2], m[3]].filter((p): p is string => p !== undefined);
  let language = languageByName(index, m[1]!);
  // "Norwegian (Nynorsk)": CLDR names that language "Norwegian Nynorsk".
  if (parts.length > 0 && (language === undefined || !isQualifier(index, parts[0]!))) {
    const compound = languageByName(index, `${m[1]} ${parts[0]}`);
    if (compound !== undefined) {
      language = compound;
      parts.shift();
    }
  }
  if (language === undefined) return null;
  let script: string | undefined;
  let region: string | undefined;
  for (const part of parts) {
    const s = index.scripts.get(key(part));
    const r = index.regions.get(key(part));
    if (s !== undefined && script === undefined && region === undefined) script = s;
    else if (r !== undefined && region === undefined) region = r;
    else return null;
  }
  let out = JAVA_LEGACY_LANGUAGE[language] ?? language;
  if (region !== undefined) out += '_' + region;
  // The table drops the Latin script (az_AZ, sr_BA, uz) and keeps the others (az_AZ_#Cyrl).
  if (script !== undefined && script !== 'Latn') out += (region === undefined ? '__#' : '_#') + script;
  return out;
}

function regionIsCanonical(code: string): boolean {
  try {
    return new Intl.Locale(`und-${code}`).region === code;
  } catch {
    return false;
  }
}

function isQualifier(index: LocaleIndex, part: string): boolean {
  return index.scripts.has(key(part)) || index.regions.has(key(part));
}
