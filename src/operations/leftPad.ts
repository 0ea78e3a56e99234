// leftPad — Apache Commons StringUtils.leftPad (https://developer.sailpoint.com/docs/extensibility/transforms/operations/left-pad).

import { leftPad as pad } from '../runtime/java-string.js';
import { padOperation } from './support/pad.js';

export const leftPad = padOperation('leftPad', 'leftPad — Apache Commons StringUtils.leftPad', pad);
