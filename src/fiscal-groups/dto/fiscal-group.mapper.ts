import type { FiscalGroupSettings } from '../../tax-engine/tax-rule.js';
import { storeRefsOf, type FiscalGroupEntity } from '../fiscal-group.entity.js';
import type { FiscalGroupResponseDto, FiscalGroupSettingsDto } from './fiscal-group.dto.js';

/** The group's own fields; its revisions are added by FiscalGroupRevisions.responses. */
export function toFiscalGroupResponse(group: FiscalGroupEntity): Omit<FiscalGroupResponseDto, 'revision' | 'scheduled'> {
  return {
    id: group.id,
    externalId: group.externalId,
    name: group.name,
    uf: group.uf,
    taxRegime: group.taxRegime,
    stores: storeRefsOf(group),
    taxMatrix: group.taxMatrix as FiscalGroupResponseDto['taxMatrix'],
    settings: settingsOf(group.settings),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

/** Every setting with its default filled in, so a reader never guesses what an absent one means. */
export function settingsOf(
  settings: FiscalGroupSettings | null | undefined,
): Required<Omit<FiscalGroupSettings, 'defaultCfop'>> & Pick<FiscalGroupSettings, 'defaultCfop'> {
  const filled = {
    includeIcmsInPisCofinsBase: settings?.includeIcmsInPisCofinsBase === true,
    platformDiscountsReduceBase: settings?.platformDiscountsReduceBase === true,
    deliveryFeeOnInvoice: settings?.deliveryFeeOnInvoice ?? 'WHEN_MERCHANT_DELIVERS',
    serviceChargeInIcmsBase: settings?.serviceChargeInIcmsBase === true,
  };
  // No default to fill in: without it, an item whose rule has no CFOP cannot be printed.
  return settings?.defaultCfop ? { ...filled, defaultCfop: settings.defaultCfop } : filled;
}

/**
 * The settings a request sent, without the keys it left out: the built service defines a DTO's class fields, so an
 * instance carries every setting not sent as undefined, which would overwrite a stored setting on a partial update.
 */
export function sentSettings(settings: FiscalGroupSettingsDto | undefined): FiscalGroupSettings {
  return Object.fromEntries(Object.entries(settings ?? {}).filter(([, value]) => value !== undefined));
}
