/** pydantic 2 emulation for τ²-bench's models (see model.ts). */
export {
  defineModel,
  deepCopyValue,
  EnumClass,
  EnumMember,
  field,
  isModel,
  PyDate,
  PyDateTime,
  PydModel,
  t,
  type FieldSpec,
  type FieldType,
  type ModelClass,
  type TDict,
  type TValue,
} from './model';
export { create, lineErrorText, PYDANTIC_URL_VERSION, validate, validationErrors, type InputMode, type LineError } from './validate';
export { modelDump, pyJsonDumps } from './dump';
export { copyDict, recordIdentity } from './lazy-dict';
export { dateStr, tRepr, tStr, tTypeName } from './repr';
