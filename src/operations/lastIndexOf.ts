// §4 lastIndexOf — last index of substring, -1 when absent. Reference: ../shared/reference/transforms.md.

import { javaLastIndexOf } from '../runtime/java-string.js';
import { searchOperation } from './support/search.js';

export const lastIndexOf = searchOperation('lastIndexOf', '§4 lastIndexOf — last index of substring, -1 when absent', javaLastIndexOf);
