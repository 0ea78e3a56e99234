// The Java date runtime of dateFormat, dateMath and dateCompare: one import
// point for the operations.

export { compileSimpleDateFormat, type SimpleDateFormat, type ParseOptions } from './simple-date-format.js';
export { compileDateFormat, isNamedDateFormat, NAMED_DATE_FORMATS, type DateFormat } from './date-format.js';
export {
  parseIso8601, formatIso8601, ISO8601_PATTERN, parseDateCompareOperand, parseDateCompareOperator, compareDates,
  type DateCompareOperator,
} from './iso8601.js';
export { parseDateMath, formatDateMathOutput, type DateMathExpression, type DateMathStep, type DateMathUnit } from './date-math.js';
