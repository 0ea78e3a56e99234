// §4 indexOf — first index of substring, -1 when absent. Reference: ../shared/reference/transforms.md.

import { javaIndexOf } from '../runtime/java-string.js';
import { searchOperation } from './support/search.js';

export const indexOf = searchOperation('indexOf', '§4 indexOf — first index of substring, -1 when absent', javaIndexOf);
