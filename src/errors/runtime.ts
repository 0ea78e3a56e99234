import type { ErrorDefinition } from './types.js';

// The Java runtime emulation: regex, Velocity templates, dates, strings. Prefixes REGEX_, TEMPLATE_.
export const runtimeErrors = {
  REGEX_SYNTAX: { status: 400, description: 'The regular expression is not valid Java Pattern syntax.' },
  REGEX_UNSUPPORTED: { status: 400, description: 'The regular expression uses a Java construct RE2 cannot run (backreference, lookaround, possessive or atomic group, class intersection).' },
  REGEX_REPLACEMENT: { status: 400, description: 'Java replacement syntax error: illegal group reference or a trailing backslash.' },
  TEMPLATE_SYNTAX: { status: 400, description: 'A Velocity template does not parse.' },
  TEMPLATE_RENDER: { status: 400, description: 'Error rendering template: a reference to a null or undefined variable, or a method that failed.' },
  TEMPLATE_FORBIDDEN: { status: 400, description: 'A template tried to reach something outside the sandbox (constructor, __proto__, prototype, host functions).' },
} as const satisfies Record<string, ErrorDefinition>;
