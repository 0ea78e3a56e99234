// indexOf — first index of substring, -1 when absent (https://developer.sailpoint.com/docs/extensibility/transforms/operations/index-of).

import { javaIndexOf } from '../runtime/java-string.js';
import { searchOperation } from './support/search.js';

export const indexOf = searchOperation('indexOf', 'indexOf — first index of substring, -1 when absent', javaIndexOf);
