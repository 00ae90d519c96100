import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OpenObject } from '../../../common/openapi/open-object.decorator.js';
import { FREIGHT_AS, NFE_LAYOUT, NFE_MODELS, type FreightAs, type NfeModel } from '../nfe-layout.js';

export class NfeQueryDto {
  /** 65 (NFC-e, the default) or 55 (NF-e): the model the items are printed for */
  @ApiProperty({ enum: NFE_MODELS, required: false, example: '65' })
  @IsOptional()
  @IsIn(NFE_MODELS, { message: `must be one of: ${NFE_MODELS.join(', ')}` })
  model?: NfeModel;

  /** Where an item's freight share is printed: `vFrete` (the default) or `vOutro` (an NFC-e without home delivery prints it as other charges; the bases are the same) */
  @ApiProperty({ enum: FREIGHT_AS, required: false, example: 'vFrete' })
  @IsOptional()
  @IsIn(FREIGHT_AS, { message: `must be one of: ${FREIGHT_AS.join(', ')}` })
  freightAs?: FreightAs;
}

/** A group of the NF-e layout: the schema's element names, a group as an object, each value the schema's text */
@OpenObject()
export class NfeGroupDto {}

/** One `det` element: an invoice item */
export class NfeDetDto {
  /** The `det` element's attribute `nItem` (1, 2, ... in payload order: a line, then its taxed modifiers), named with `@` as xmlbuilder2 writes attributes */
  @ApiProperty({ name: '@nItem', example: '1', pattern: '^[1-9][0-9]{0,2}$' })
  '@nItem': string;

  /** `prod`: cProd, cEAN, xProd, NCM, CEST (when the rule has one), CFOP, uCom, qCom, vUnCom, vProd, cEANTrib, uTrib, qTrib, vUnTrib, vFrete, vDesc, vOutro (when not zero), indTot */
  @ApiProperty({
    example: {
      cProd: 'demo-burger',
      cEAN: 'SEM GTIN',
      xProd: 'Classic burger',
      NCM: '21069090',
      CFOP: '5102',
      uCom: 'UN',
      qCom: '2.0000',
      vUnCom: '25.90',
      vProd: '51.80',
      cEANTrib: 'SEM GTIN',
      uTrib: 'UN',
      qTrib: '2.0000',
      vUnTrib: '25.90',
      indTot: '1',
    },
  })
  prod: NfeGroupDto;

  /** `imposto`: `ICMS` (one of ICMS00, ICMS20, ICMS40, ICMS51, ICMS60, ICMS90, ICMSSN102, ICMSSN500, ICMSSN900), `PIS` and `COFINS` (Aliq, NT or Outr), and `IBSCBS` when the rule has reform rates */
  @ApiProperty({
    example: {
      ICMS: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '51.80', pICMS: '18.0000', vICMS: '9.32' } },
      PIS: { PISAliq: { CST: '01', vBC: '42.48', pPIS: '0.6500', vPIS: '0.28' } },
      COFINS: { COFINSAliq: { CST: '01', vBC: '42.48', pCOFINS: '3.0000', vCOFINS: '1.27' } },
    },
  })
  imposto: NfeGroupDto;
}

/** The `det` elements and the `total` of an order's NF-e or NFC-e, in the layout of NF-e 4.00 with the reform groups */
export class NfeItemsDto {
  @ApiProperty({ example: 'ORD-2026-000123' })
  orderId: string;

  @ApiProperty({ enum: NFE_MODELS, example: '65' })
  model: NfeModel;

  /** Código de Regime Tributário of the fiscal group: 1 Simples Nacional, 3 normal regime, 4 MEI */
  @ApiProperty({ enum: ['1', '3', '4'], example: '3' })
  crt: '1' | '3' | '4';

  @ApiProperty({ enum: [NFE_LAYOUT], example: NFE_LAYOUT })
  layout: typeof NFE_LAYOUT;

  /** One per taxed item, in payload order */
  det: NfeDetDto[];

  /** `ICMSTot` (every element the schema requires; each figure the sum of the printed item figures, vNF = vProd − vDesc + vFrete + vSeg + vOutro) and `IBSCBSTot` when an item has `IBSCBS` */
  @ApiProperty({
    example: {
      ICMSTot: {
        vBC: '51.80',
        vICMS: '9.32',
        vICMSDeson: '0.00',
        vFCP: '0.00',
        vBCST: '0.00',
        vST: '0.00',
        vFCPST: '0.00',
        vFCPSTRet: '0.00',
        vProd: '51.80',
        vFrete: '0.00',
        vSeg: '0.00',
        vDesc: '0.00',
        vII: '0.00',
        vIPI: '0.00',
        vIPIDevol: '0.00',
        vPIS: '0.28',
        vCOFINS: '1.27',
        vOutro: '0.00',
        vNF: '51.80',
      },
    },
  })
  total: NfeGroupDto;
}
