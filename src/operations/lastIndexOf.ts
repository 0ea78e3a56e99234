// lastIndexOf — last index of substring, -1 when absent (https://developer.sailpoint.com/docs/extensibility/transforms/operations/last-index-of).

import { javaLastIndexOf } from '../runtime/java-string.js';
import { searchOperation } from './support/search.js';

export const lastIndexOf = searchOperation('lastIndexOf', 'lastIndexOf — last index of substring, -1 when absent', javaLastIndexOf);
