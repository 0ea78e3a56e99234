// JSON Patch for the PATCH endpoints (RFC 6902; https://developer.sailpoint.com/docs/api/patch-requests):
// the operations, the strict JSON
// Pointer reader and the coded reasons of a refused patch.

export { applyPatch, cloneJson, jsonEqual, parsePatch, type ApplyPatchOptions, type PatchOp, type PatchOperation } from './apply.js';
export { FORBIDDEN_TOKENS, formatPointer, parsePointer, type PatchErrorCode } from './pointer.js';
export { checkReplacement, JSON_PATCH_MEDIA_TYPE, patchOperations, requirePatchContentType } from './http.js';
export { duplicateMemberError, findDuplicateMember, jsonPatchBodyParser, type DuplicateMember } from './body.js';
