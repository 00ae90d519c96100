import { create } from 'xmlbuilder2';
import { NFE_NAMESPACE, type NfeItems } from './nfe-layout.js';

/**
 * The items as XML: `<NFeItens xmlns="http://www.portalfiscal.inf.br/nfe">` holding the `det` elements in order and
 * one `total`, written by xmlbuilder2 from the JSON answer itself (`@nItem` is the attribute), so both always agree.
 */
export function nfeItemsXml(items: NfeItems): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NFE_NAMESPACE, 'NFeItens');
  root.ele({ det: items.det as unknown as object[], total: items.total });
  return root.end({ prettyPrint: false });
}
