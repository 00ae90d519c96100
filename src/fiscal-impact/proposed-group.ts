import type { UpdateFiscalGroupDto } from '../fiscal-groups/dto/fiscal-group.dto.js';
import { sentSettings } from '../fiscal-groups/dto/fiscal-group.mapper.js';
import { normalizeTaxMatrix } from '../fiscal-groups/tax-rule-validation.js';
import type { FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';

/**
 * The group the body of an update would make of `inForce`, as the tax engine sees it: the same
 * rules as the update itself (only the properties sent change; `taxMatrix` replaces the whole
 * matrix; `settings` are merged into the group's). `stores` does not change what is taxed.
 */
export function proposedGroup(inForce: FiscalGroupSnapshot, body: UpdateFiscalGroupDto): FiscalGroupSnapshot {
  return {
    id: inForce.id,
    externalId: body.externalId !== undefined ? body.externalId : inForce.externalId,
    uf: body.uf ?? inForce.uf,
    taxRegime: body.taxRegime !== undefined ? body.taxRegime : inForce.taxRegime,
    taxMatrix: body.taxMatrix !== undefined ? normalizeTaxMatrix(body.taxMatrix as never) : inForce.taxMatrix,
    settings: body.settings !== undefined ? { ...inForce.settings, ...sentSettings(body.settings) } : inForce.settings,
  };
}
