// rightPad — Apache Commons StringUtils.rightPad (https://developer.sailpoint.com/docs/extensibility/transforms/operations/right-pad).

import { rightPad as pad } from '../runtime/java-string.js';
import { padOperation } from './support/pad.js';

export const rightPad = padOperation('rightPad', 'rightPad — Apache Commons StringUtils.rightPad', pad);
