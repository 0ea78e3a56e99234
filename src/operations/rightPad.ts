// §4/§6 rightPad — Apache Commons StringUtils.rightPad. Reference: ../shared/reference/transforms.md.

import { rightPad as pad } from '../runtime/java-string.js';
import { padOperation } from './support/pad.js';

export const rightPad = padOperation('rightPad', '§4/§6 rightPad — Apache Commons StringUtils.rightPad', pad);
