// The OASIS SARIF 2.1.0 JSON Schema (test/conformance/data/sarif, see SOURCES.md there), compiled
// with ajv's draft-04 build and its formats (uri, uri-reference, date-time) checked.
import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

// Both are CommonJS with an `exports.default` that TypeScript's nodenext view leaves one level down.
const Ajv04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

const SCHEMA = JSON.parse(readFileSync(new URL('../conformance/data/sarif/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8')) as object;

/** What the schema says is wrong with `log`: nothing for a valid SARIF 2.1.0 log. */
export function sarifSchemaErrors(log: unknown): unknown[] {
  // The schema's patterns are ECMA-262 without the u flag (one has a stray ']').
  const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(SCHEMA);
  return validate(log) ? [] : (validate.errors ?? []);
}
