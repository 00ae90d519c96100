import { storeRefsOf, type FiscalGroupEntity } from '../fiscal-group.entity.js';
import type { FiscalGroupResponseDto } from './fiscal-group.dto.js';

export function toFiscalGroupResponse(group: FiscalGroupEntity): FiscalGroupResponseDto {
  return {
    id: group.id,
    externalId: group.externalId,
    name: group.name,
    uf: group.uf,
    taxRegime: group.taxRegime,
    stores: storeRefsOf(group),
    taxMatrix: group.taxMatrix as FiscalGroupResponseDto['taxMatrix'],
    settings: { includeIcmsInPisCofinsBase: group.settings?.includeIcmsInPisCofinsBase === true },
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}
