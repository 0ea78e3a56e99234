// Compiled schema validators: the ones `npm run build` generates (ajv's standalone code, written
// to dist/schema/precompiled/), or ajv at run time. Loading ajv and compiling the 36-operation
// schema costs about 300 ms, which a `validate` run would otherwise pay at every start-up.
// A generated validator is found by the fingerprint of its schema and ajv options, so an engine
// with operations of its own (another schema), or a source checkout that was never built,
// compiles with ajv as before: never a validator for the wrong schema.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject } from 'ajv';

/** A compiled validator: true when valid, else its errors on `errors` (ajv's contract). */
export type CompiledSchema = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** ajv's options for every schema validator; `allErrors` is chosen per validator. */
const AJV_OPTIONS = { strict: false, allowUnionTypes: true, discriminator: true } as const;

/**
 * Where the build writes the generated validators (next to this module in dist/). Spelled from
 * the parent directory so that it is the same from the refresh workers' bundle
 * (dist/refresh/worker.bundle.js, scripts/build-worker-bundle.ts), which inlines this module.
 */
export const PRECOMPILED_DIR = fileURLToPath(new URL('../schema/precompiled/', import.meta.url));

// ajv (CommonJS) loads on first use: a built CLI validating the built-in schema never needs it.
const require = createRequire(import.meta.url);
function newAjv(allErrors: boolean, source = false): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  return new AjvClass({ ...AJV_OPTIONS, allErrors, ...(source ? { code: { source: true } } : {}) });
}

/** The file name of the generated validator for a schema: a digest of the schema and options. */
export function precompiledFile(schema: Record<string, unknown>, allErrors: boolean): string {
  const digest = createHash('sha256').update(JSON.stringify({ options: { ...AJV_OPTIONS, allErrors }, schema })).digest('hex');
  return `validator-${digest.slice(0, 20)}.cjs`;
}

/** The validator for a schema: the generated one when the build made it, else compiled by ajv now. */
export function compileSchema(schema: Record<string, unknown>, allErrors: boolean, dir: string = PRECOMPILED_DIR): CompiledSchema {
  const file = `${dir}/${precompiledFile(schema, allErrors)}`;
  if (existsSync(file)) return require(file) as CompiledSchema;
  return newAjv(allErrors).compile(schema) as CompiledSchema;
}

/** ajv's standalone code (CommonJS) of a schema's validator, and the file name compileSchema looks for. */
export function standaloneValidator(schema: Record<string, unknown>, allErrors: boolean): { file: string; code: string } {
  const ajv = newAjv(allErrors, true);
  const validate = ajv.compile(schema);
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone/index.js')).default;
  return { file: precompiledFile(schema, allErrors), code: standaloneCode(ajv, validate) };
}
