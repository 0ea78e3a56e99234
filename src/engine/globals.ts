// The variables every template sees besides its transform's dynamic variables
// (reference §3.2 context table): $identity, and what the caller put in the evaluation
// context ($oldValue, $attributeDefinition, …).

import type { TemplateGlobals } from '../runtime/velocity/index.js';
import type { IdentityGraph } from '../providers/types.js';
import type { Evaluation } from './types.js';

export function templateGlobals(ev: Evaluation, identity: IdentityGraph | null): TemplateGlobals {
  return { ...ev.variables, identity };
}
