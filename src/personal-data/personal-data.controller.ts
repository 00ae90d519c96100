import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import {
  PersonalDataErasureDto,
  PersonalDataErasureRequestDto,
  PersonalDataLookupDto,
  PersonalDataOrderDto,
  PersonalDataSubjectQuery,
} from './dto/personal-data.dto.js';
import { PersonalDataService } from './personal-data.service.js';

@ApiTags('Personal data')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/personal-data')
@Auth('admin', { role: 'admin' })
export class PersonalDataController {
  constructor(private readonly personalData: PersonalDataService) {}

  @Get()
  @ApiOperation({
    summary: "Find a person's orders and the personal data they hold",
    description:
      'Exactly one of `email` (any case), `phone` (its digits) or `document` (a CPF or CNPJ, its digits; the check digits must hold). ' +
      'Answers the orders holding that person’s data, newest first (at most 500, `truncated` says when there are more), each with every ' +
      'personal field it holds (place, path and value): the person’s copy. Found through keyed hashes stored with each order, never by reading every payload.',
  })
  @ApiOkResponse({ type: PersonalDataLookupDto, description: "The person's orders and fields" })
  @ApiErrors([400], {
    400: 'No key or more than one, an e-mail that is not one, a phone of fewer than 8 digits, or a CPF/CNPJ whose check digits do not hold (`details[].field` names it)',
  })
  lookup(@Query() query: PersonalDataSubjectQuery): Promise<PersonalDataLookupDto> {
    return this.personalData.lookup(query);
  }

  @Post('erasure')
  @HttpCode(200)
  @ApiOperation({
    summary: "Erase a person's data from every stored copy, keeping the fiscal record",
    description:
      'Exactly one of `email`, `phone` or `document`, and a `reason`. Every personal field of the orders holding that person’s data is replaced by ' +
      '`[erased]` in the payload, the enriched payload (`sourceOrder` and the new-order webhook’s body included), the receiver’s last answer and the ' +
      'webhook delivery log; items, amounts, taxes, statuses and history stay. One transaction per order, each audited with the reason and the counts ' +
      '(never the data): a failure part-way leaves every order erased or untouched, and a rerun erases the rest. Idempotent: a rerun answers zero counts.',
  })
  @ApiOkResponse({ type: PersonalDataErasureDto, description: 'What was erased, per place' })
  @ApiErrors([400], {
    400: 'No key or more than one, an e-mail that is not one, a phone of fewer than 8 digits, a CPF/CNPJ whose check digits do not hold, or no reason (`details[].field` names it)',
  })
  erase(@Body() request: PersonalDataErasureRequestDto, @Audited() audit: AuditContext): Promise<PersonalDataErasureDto> {
    return this.personalData.erase(request, audit);
  }

  @Post('orders/:id/reveal')
  @HttpCode(200)
  @ApiOperation({
    summary: "Reveal one order's personal data in full (audited)",
    description:
      'People see a customer’s e-mails, phones and CPF/CNPJ masked in the orders (the role `fiscal` does not see them); an admin reveals one order’s ' +
      'personal fields in full here. Each reveal is recorded in the audit log (`order.personal-data.reveal`, target the order: who, when and the ' +
      'paths revealed, never a value) before the answer is sent.',
  })
  @ApiParam({ name: 'id', description: 'The order’s internal id (UUID) or its orderId', example: 'ORD-2026-000123' })
  @ApiOkResponse({ type: PersonalDataOrderDto, description: 'The order with every personal field it holds (place, path and value)' })
  @ApiErrors([400, 404], { 400: 'The id is longer than 100 characters', 404: 'No order has this id or orderId' })
  reveal(@Param('id') id: string, @Audited() audit: AuditContext): Promise<PersonalDataOrderDto> {
    return this.personalData.reveal(id, audit);
  }
}
