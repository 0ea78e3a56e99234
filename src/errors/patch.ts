import type { ErrorDefinition } from './types.js';

// JSON Patch (RFC 6902) and whole-document replacement of stored resources (PATCH and PUT of
// sources, schemas, transforms…). Prefix PATCH_. Every one is a 400 whose `details.operation` is
// the index of the failing operation and whose `path` is the pointer it names; nothing is applied.
export const patchErrors = {
  PATCH_NOT_ARRAY: { status: 400, description: 'The JSON Patch body is not an array of operations.' },
  PATCH_EMPTY: { status: 400, description: 'The JSON Patch body holds no operation (an endpoint needs at least one).' },
  PATCH_OPERATION_INVALID: { status: 400, description: "An operation is not an object, its op is unknown, or it lacks a member its op needs (path, value, from); also an operation that would remove the whole document." },
  PATCH_POINTER_INVALID: { status: 400, description: "A path or from is not a JSON Pointer (RFC 6901): not empty and not starting with '/', or '~' not followed by 0 or 1." },
  PATCH_POINTER_FORBIDDEN: { status: 400, description: 'A path or from names __proto__, constructor or prototype, anywhere in it.' },
  PATCH_PATH_MISSING: { status: 400, description: 'The location a path names (or its parent) does not exist in the document.' },
  PATCH_FROM_MISSING: { status: 400, description: 'The location the from of a move or copy names does not exist in the document.' },
  PATCH_INDEX_INVALID: { status: 400, description: "An array index in a path is not an index between 0 and the array's length, nor '-'." },
  PATCH_MOVE_INTO_CHILD: { status: 400, description: 'A move takes a value into one of its own children.' },
  PATCH_TEST_FAILED: { status: 400, description: 'A test operation found another value at its path.' },
  PATCH_IMMUTABLE: { status: 400, description: 'The change (a patch operation or a full replacement) modifies a member the resource does not let clients change (id, created, …).' },
  PATCH_TOO_LARGE: { status: 400, description: "The patch copies more JSON than the limit (four request bodies' worth), checked while copying." },
  PATCH_DUPLICATE_MEMBER: { status: 400, description: 'An object of the body repeats a member name; the operation index, the member, its pointer and line/column are named.' },
} as const satisfies Record<string, ErrorDefinition>;
