import type { ErrorDefinition } from './types.js';

// Validation (schema + cross-file checks). Prefix SCHEMA_ / VALIDATE_.
export const schemaErrors = {
  SCHEMA_NOT_OBJECT: { status: 400, description: 'A transform (or nested transform) is not a JSON object.' },
  SCHEMA_REQUIRED: { status: 400, description: 'A required property is missing (name at the root, type, attributes where the operation needs them, a required attribute).' },
  SCHEMA_UNKNOWN_PROPERTY: { status: 400, description: 'A property the platform does not define: an unknown top-level key, or an unknown attribute of an operation whose attributes are a fixed set.' },
  SCHEMA_TYPE: { status: 400, description: 'A value has the wrong JSON type (after the loose typing the platform accepts: "8", 8, 8.0; "true"/true).' },
  SCHEMA_ENUM: { status: 400, description: 'A value is not one of the allowed values (an unknown operation type, a dateCompare operator, an iso3166 format, …).' },
  SCHEMA_CONSTRAINT: { status: 400, description: 'A value breaks a documented constraint (name length, a length above 450, an empty values array, …).' },
  VALIDATE_DUPLICATE_NAME: { status: 400, description: 'Two transforms in the validated set have the same name.' },
  VALIDATE_UNKNOWN_REFERENCE: { status: 400, description: 'A reference transform names a transform that is not in the validated set (or the provider).' },
  VALIDATE_REFERENCE_CYCLE: { status: 400, description: 'Transforms reference each other in a cycle.' },
  VALIDATE_TOO_LARGE: { status: 400, description: 'The transform exceeds the platform\'s 400 KB upload limit.' },
  VALIDATE_TOO_DEEP: { status: 400, description: 'Transforms are nested deeper than the configured limit.' },
  VALIDATE_LOOKUP_NO_DEFAULT: { status: 400, description: 'Warning: a lookup table without a "default" key errors for every unmatched input.' },
  VALIDATE_JSON_SYNTAX: { status: 400, description: 'The file is not valid JSON (position given as line and column).' },
  VALIDATE_EMPTY_FILE: { status: 400, description: 'The file is empty.' },
  VALIDATE_LINK_OUTSIDE: { status: 400, description: 'validate found the file by searching a directory or a glob, through a symbolic link to a file outside that tree, and did not read it: what validate reports of a file quotes it, and a link in a pull request could point at a file of the machine running the check. Name the file itself to validate it.' },
  VALIDATE_UNKNOWN_SOURCE: { status: 400, description: 'An accountAttribute names a source (sourceName, applicationName, applicationId or sourceId) that no source of the tenant model (validate --fixtures, the language server\'s fixtures) has.' },
  VALIDATE_UNKNOWN_ACCOUNT_ATTRIBUTE: { status: 400, description: 'Warning: an accountAttribute reads an attributeName that no account of its source carries in the tenant model.' },
  VALIDATE_UNKNOWN_DOCUMENT: { status: 400, description: 'The document is none of what validate checks: not a transform, not an identity profile, not a source create profile.' },
} as const satisfies Record<string, ErrorDefinition>;
