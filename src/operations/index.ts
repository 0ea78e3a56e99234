// The built-in operations: one module per transform type, file named after the type
// (the platform's 35-value enum plus the documented `join`; https://developer.sailpoint.com/docs/extensibility/transforms/operations/). The engine assembles them into its
// own registry; nothing here is mutable.
//
// An operation spec without `compile` (a user's, say) still validates; evaluating it fails
// with EVAL_NOT_EVALUABLE. Every built-in has its evaluator.

import type { OperationSpec } from '../engine/types.js';
import { accountAttribute } from './accountAttribute.js';
import { base64Decode } from './base64Decode.js';
import { base64Encode } from './base64Encode.js';
import { concat } from './concat.js';
import { conditional } from './conditional.js';
import { dateCompare } from './dateCompare.js';
import { dateFormat } from './dateFormat.js';
import { dateMath } from './dateMath.js';
import { decomposeDiacriticalMarks } from './decomposeDiacriticalMarks.js';
import { displayName } from './displayName.js';
import { e164phone } from './e164phone.js';
import { firstValid } from './firstValid.js';
import { identityAttribute } from './identityAttribute.js';
import { indexOf } from './indexOf.js';
import { iso3166 } from './iso3166.js';
import { join } from './join.js';
import { lastIndexOf } from './lastIndexOf.js';
import { leftPad } from './leftPad.js';
import { lookup } from './lookup.js';
import { lower } from './lower.js';
import { normalizeNames } from './normalizeNames.js';
import { randomAlphaNumeric } from './randomAlphaNumeric.js';
import { randomNumeric } from './randomNumeric.js';
import { reference } from './reference.js';
import { replace } from './replace.js';
import { replaceAll } from './replaceAll.js';
import { rfc5646 } from './rfc5646.js';
import { rightPad } from './rightPad.js';
import { rule } from './rule.js';
import { split } from './split.js';
import { staticOperation } from './static.js';
import { substring } from './substring.js';
import { trim } from './trim.js';
import { upper } from './upper.js';
import { usernameGenerator } from './usernameGenerator.js';
import { uuid } from './uuid.js';

/** The platform's type enum, in the OpenAPI's order, plus join (documented, not in the enum). */
export const PLATFORM_TYPES = [
  'accountAttribute', 'base64Decode', 'base64Encode', 'concat', 'conditional', 'dateCompare', 'dateFormat', 'dateMath',
  'decomposeDiacriticalMarks', 'e164phone', 'firstValid', 'rule', 'identityAttribute', 'indexOf', 'iso3166', 'lastIndexOf',
  'leftPad', 'lookup', 'lower', 'normalizeNames', 'randomAlphaNumeric', 'randomNumeric', 'reference', 'replaceAll', 'replace',
  'rightPad', 'split', 'static', 'substring', 'trim', 'upper', 'usernameGenerator', 'uuid', 'displayName', 'rfc5646', 'join',
] as const;

export const builtinOperations: readonly OperationSpec[] = Object.freeze([
  accountAttribute, base64Decode, base64Encode, concat, conditional, dateCompare, dateFormat, dateMath,
  decomposeDiacriticalMarks, e164phone, firstValid, rule, identityAttribute, indexOf, iso3166, lastIndexOf,
  leftPad, lookup, lower, normalizeNames, randomAlphaNumeric, randomNumeric, reference, replaceAll, replace,
  rightPad, split, staticOperation, substring, trim, upper, usernameGenerator, uuid, displayName, rfc5646, join,
]);
