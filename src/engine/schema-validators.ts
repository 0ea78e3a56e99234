// An engine's JSON Schema validators (schema/validator.ts over the schema its registry builds).
// Compiling them with ajv costs about 300 ms, so the built-in registry's are compiled once per
// process and shared by every engine without operations of its own: they are a constant of the
// program, the same functions `npm run build` writes ahead of time (scripts/precompile-validators.ts)
// — a function of the built-in operations only, which no option, engine or call can change.
// An engine with operations of its own has another schema and compiles its own.

import { builtinOperations } from '../operations/index.js';
import { buildDefinitionValidatorSchema, buildValidatorSchema } from '../schema/build.js';
import type { ValidationIssue } from '../schema/issues.js';
import { createSchemaValidator, type SchemaValidator } from '../schema/validator.js';
import { createRegistry, type Registry } from './registry.js';

/** The schema validators of one registry, each compiled when first used. */
export class SchemaValidators {
  private transformValidator: SchemaValidator | undefined = undefined;
  private definitionValidator: SchemaValidator | undefined = undefined;
  private schema: Record<string, unknown> | undefined = undefined;

  constructor(private readonly registry: Registry) {}

  /** Issues of a root transform (name required). */
  transform(value: unknown): ValidationIssue[] {
    return (this.transformValidator ??= createSchemaValidator(this.validatorSchema()))(value);
  }

  /** Issues of a nested transform definition (an identity-profile mapping: no name required). */
  definition(value: unknown): ValidationIssue[] {
    return (this.definitionValidator ??= createSchemaValidator(buildDefinitionValidatorSchema(this.validatorSchema())))(value);
  }

  private validatorSchema(): Record<string, unknown> {
    return (this.schema ??= buildValidatorSchema(this.registry));
  }
}

// Not state: the one value this module holds is the validators above for the built-in
// operations, created on first use rather than at import (a program that never validates never
// pays for them) and the same whichever engine asks first.
let builtin: SchemaValidators | undefined;

/** The validators for an engine's registry: the shared built-in ones unless it registered operations of its own. */
export function schemaValidatorsFor(registry: Registry, ownOperations: boolean): SchemaValidators {
  if (ownOperations) return new SchemaValidators(registry);
  return (builtin ??= new SchemaValidators(createRegistry(builtinOperations)));
}
