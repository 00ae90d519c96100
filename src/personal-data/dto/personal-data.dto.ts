import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length } from 'class-validator';
import { BUILT_IN_PERSONAL_DATA_FIELD_LISTS } from '../personal-data-fields.js';

/** Who a request is about: exactly one of the three (a 400 names the field otherwise). */
export class PersonalDataSubjectQuery {
  /** The person's e-mail, in any case */
  @ApiProperty({ example: 'ana.souza@example.com' })
  @IsOptional()
  @IsEmail({}, { message: 'must be an e-mail address' })
  email?: string;

  /** The person's phone: only its digits count (a leading 55 of a Brazilian number is dropped) */
  @ApiProperty({ example: '+55 11 98765-4321' })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  phone?: string;

  /** The person's CPF or CNPJ, with or without punctuation; its check digits must hold */
  @ApiProperty({ example: '123.456.789-09' })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  document?: string;
}

export class PersonalDataErasureRequestDto extends PersonalDataSubjectQuery {
  /** Why the data is erased (the person's request, a ticket): kept in the audit log */
  @ApiProperty({ example: 'LGPD request #2026-114' })
  @IsString()
  @Length(1, 500)
  reason: string;
}

/** One personal value an order holds */
export class PersonalDataFieldDto {
  /** Which stored copy holds it */
  place: 'payload' | 'enrichedPayload';
  /** Its path in that copy (`customer.phone`, `sourceOrder.delivery.deliveryAddress.postalCode`) */
  path: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], example: 'ana.souza@example.com' })
  value: string | number;
}

/** An order holding the person's data, with every personal field it holds */
export class PersonalDataOrderDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
  orderId: string;
  status: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  fields: PersonalDataFieldDto[];
}

/** The personal fields of one intake shape, by path (`*`: any array index or key) */
export class PersonalDataFieldListDto {
  /** `standard` (the platform's payload), `new-order-webhook`, or a marketplace profile */
  shape: string;
  fields: string[];
}

const FIELD_LISTS_TEXT = BUILT_IN_PERSONAL_DATA_FIELD_LISTS.map(({ shape, fields }) => `${shape}: ${fields.join(', ')}`).join('; ');

/** The person's copy: the orders holding their data, newest first */
export class PersonalDataLookupDto {
  orders: PersonalDataOrderDto[];
  /** Whether more orders hold the data than the answer carries (at most 500; erase or narrow down) */
  truncated: boolean;
  @ApiProperty({
    type: [PersonalDataFieldListDto],
    description: `The personal fields the service reads, per intake shape (also under \`sourceOrder\`), plus a rule for what they miss (docs/personal-data.md): ${FIELD_LISTS_TEXT}; and one list per marketplace profile, named by its \`?profile=\` value, as the profile declares it (the README lists them all)`,
    example: BUILT_IN_PERSONAL_DATA_FIELD_LISTS,
  })
  fieldLists: PersonalDataFieldListDto[];
}

/** What an erasure changed, per place (each order's own transaction; a rerun changes nothing more) */
export class PersonalDataErasureDto {
  /** Orders holding the person's data */
  orders: number;
  /** Orders whose payloads were changed by this request (0 on a rerun) */
  erasedOrders: number;
  /** Values replaced in the payloads (`sourceOrder` and the new-order webhook's body included) */
  payloadFields: number;
  /** Values replaced in the enriched payloads */
  enrichedPayloadFields: number;
  /** Webhook delivery log rows and pending retries whose bodies were changed */
  deliveryLogRows: number;
}
