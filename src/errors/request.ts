import type { ErrorDefinition } from './types.js';

// Query parameters and request bodies of the HTTP API that the route schema alone cannot judge:
// the standard collection parameters (https://developer.sailpoint.com/docs/api/standard-collection-parameters)
// and the documents a request stores. Each is a 400; the parameter or pointer is named.
export const requestErrors = {
  PARAM_UNSUPPORTED: { status: 400, description: 'A query parameter the endpoint does not document (it is named with the supported ones).' },
  PARAM_REPEATED: { status: 400, description: 'A query parameter is given more than once.' },
  PARAM_INVALID: { status: 400, description: 'A query parameter has a value of the wrong form (limit, offset or count that is not a non-negative integer or a boolean), or percent-escapes that do not decode to UTF-8 (the position is named).' },
  LIMIT_EXCEEDED: { status: 400, description: "'limit' is above the endpoint's maximum (250)." },
  UNESCAPED_CHARACTER: { status: 400, description: "The filters value holds a raw '#' or a '%' that starts no %XX escape; the position and the escape to use are named." },
  FILTERS_UNSUPPORTED: { status: 400, description: 'The endpoint does not take filters.' },
  SORTER_INVALID: { status: 400, description: "A sorters entry is not a field name with an optional '-' for descending order." },
  SORTER_FIELD: { status: 400, description: 'A sorters entry names a field the endpoint cannot sort on (the sortable ones are named).' },
  SORTER_REPEATED: { status: 400, description: 'sorters names a field twice.' },
  JSON_TOO_DEEP: { status: 400, description: 'JSON nests objects and arrays too deeply: a request body or a patched or replaced document deeper than requestLimits.maxJsonDepth (256), or any JSON read or written (fixtures, files, stdin, tenant responses, impact versions, stored records) deeper than 1,000 levels; path is the first value too deep.' },
  DOCUMENT_TOO_LARGE: { status: 400, description: 'A patched or replaced document is larger than the request body limit.' },
  RESOURCE_INVALID: { status: 400, description: 'A source or source schema document breaks the rules of its resource (the problems are listed in causes).' },
  TRANSFORM_INVALID: { status: 400, description: 'A created or updated transform has a member a transform does not have, or does not validate; causes list "<pointer>: <code> <message>" and details.issues the validation issues.' },
  TRANSFORM_NAME_INVALID: { status: 400, description: 'A transform name holds a control or bidirectional formatting character.' },
  TRANSFORM_IMMUTABLE: { status: 400, description: "An update of a transform changes a member other than attributes (id, name, type, internal, requiresPeriodicRefresh)." },
  TRANSFORM_INTERNAL: { status: 400, description: 'The transform is one of the platform\'s internal transforms, which cannot be modified or deleted.' },
  TRANSFORM_REFERENCE_CYCLE: { status: 400, description: 'A created or updated transform would close a cycle of references among the stored transforms; the cycle is in the message and details.cycle.' },
} as const satisfies Record<string, ErrorDefinition>;
