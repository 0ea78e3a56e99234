// Build step (`npm run build`, after tsc): ajv standalone code for the built-in engine's four
// schema validators (transform and nested definition; first error and all errors), written next
// to dist/schema/compiled.js, which loads them instead of compiling with ajv at start-up.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/engine/engine.js';
import { buildDefinitionValidatorSchema, buildValidatorSchema } from '../src/schema/build.js';
import { standaloneValidator } from '../src/schema/compiled.js';

const dir = fileURLToPath(new URL('../dist/schema/precompiled/', import.meta.url));
const transform = buildValidatorSchema(createEngine().registry);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
for (const schema of [transform, buildDefinitionValidatorSchema(transform)]) {
  for (const allErrors of [false, true]) {
    const { file, code } = standaloneValidator(schema, allErrors);
    writeFileSync(join(dir, file), code);
  }
}
process.stdout.write(`wrote 4 validators to ${dir}\n`);
