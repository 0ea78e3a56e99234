// §4/§6 leftPad — Apache Commons StringUtils.leftPad. Reference: ../shared/reference/transforms.md.

import { leftPad as pad } from '../runtime/java-string.js';
import { padOperation } from './support/pad.js';

export const leftPad = padOperation('leftPad', '§4/§6 leftPad — Apache Commons StringUtils.leftPad', pad);
