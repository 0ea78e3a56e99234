// The bodies the playground's API takes, as JSON Schemas (docs/playground.md prints them), each
// compiled once by ajv: no unknown member, every string bounded — a document by the platform's
// 400 KB limit for a transform, a name or file by 1,000 characters. A body that fails its schema
// is PLAY_REQUEST_INVALID at the JSON Pointer of what is wrong.

import { Ajv, type ErrorObject } from 'ajv';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { codedError } from '../errors/index.js';
import { MAX_NAME } from './request-bounds.js';

const document = { type: 'string', maxLength: MAX_TRANSFORM_BYTES, description: 'The editor\'s text: a transform or an identity profile (JSON, possibly half-typed)' };
const file = { type: 'string', minLength: 1, maxLength: MAX_NAME, description: 'The example file the text was opened from (transforms/x.json), when it was' };
const identity = { type: 'string', minLength: 1, maxLength: MAX_NAME, description: 'The identity to evaluate for: its id or name' };
const offset = { type: 'integer', minimum: 0, maximum: MAX_TRANSFORM_BYTES, description: 'The caret, in UTF-16 code units from the start of the text' };

const object = (properties: Record<string, object>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false }) as const;

export const REQUEST_SCHEMAS = {
  analyze: object({ document, file, identity, offset }, ['document']),
  complete: object({ document, file, offset }, ['document', 'offset']),
  profile: object({ document, file, identity }, ['document', 'identity']),
  impact: object({ document, file, examples: { type: 'integer', minimum: 0, maximum: 20, description: 'Example identities per attribute and kind of difference (default 5)' } }, ['document', 'file']),
} as const;

export interface AnalyzeRequest {
  document: string;
  file?: string;
  identity?: string;
  offset?: number;
}
export interface CompleteRequest {
  document: string;
  file?: string;
  offset: number;
}
export interface ProfileRequest {
  document: string;
  file?: string;
  identity: string;
}
export interface ImpactRequest {
  document: string;
  file: string;
  examples?: number;
}

export interface RequestTypes {
  analyze: AnalyzeRequest;
  complete: CompleteRequest;
  profile: ProfileRequest;
  impact: ImpactRequest;
}

export type RequestName = keyof RequestTypes;

/** The compiled checkers of the request bodies (made once per server). */
export function requestCheckers(): <N extends RequestName>(name: N, body: unknown) => RequestTypes[N] {
  const ajv = new Ajv({ allErrors: false, strict: true });
  const checks = new Map(Object.entries(REQUEST_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]));
  return <N extends RequestName>(name: N, body: unknown): RequestTypes[N] => {
    const check = checks.get(name)!;
    if (check(body)) return body as unknown as RequestTypes[N];
    const error = check.errors![0]!;
    throw codedError('PLAY_REQUEST_INVALID', `${name}: ${describe(error)}`, { path: pointerOf(error) });
  };
}

/** The JSON Pointer of what a schema error is about (a missing or unknown member: that member). */
function pointerOf(error: ErrorObject): string {
  const member = (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ?? (error.params as { additionalProperty?: string }).additionalProperty;
  return member === undefined ? error.instancePath : `${error.instancePath}/${member}`;
}

function describe(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string; limit?: number };
  if (params.missingProperty !== undefined) return `the member "${params.missingProperty}" is required`;
  if (params.additionalProperty !== undefined) return `unknown member "${params.additionalProperty}"`;
  return `${error.instancePath || 'the body'} ${error.message ?? 'is invalid'}`;
}
