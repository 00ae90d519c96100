import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../../auth/auth.decorators.js';
import { CurrentActor } from '../../auth/current-client.decorator.js';
import type { Actor } from '../../common/actor.js';
import { ErrorFamily } from '../../common/errors/error-families.js';
import { ErrorBodies } from '../../common/http/error-bodies.decorator.js';
import { ApiDomainErrors, ApiErrors } from '../../common/openapi/api-errors.decorator.js';
import { NfeNotIssuableErrorDto } from './dto/nfe-errors.dto.js';
import { NfeItemsDto, NfeQueryDto } from './dto/nfe-items.dto.js';
import { NfeItemsService } from './nfe-items.service.js';
import { NFE_ITEMS_XML_EXAMPLE } from './nfe-examples.js';

const XML = 'application/xml';

/** Whether the client asked for XML (`Accept: application/xml` or `text/xml`). */
function wantsXml(accept: string | undefined): boolean {
  return accept !== undefined && /\b(application|text)\/xml\b/i.test(accept);
}

@ApiTags('Fiscal documents')
@ApiExtraModels(NfeItemsDto)
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('orders')
// Every role reads an order's invoice items in the console, as it reads the order.
@Auth('orders', { role: 'support' })
export class NfeController {
  constructor(private readonly nfe: NfeItemsService) {}

  @Get(':orderId/nfe')
  @ApiOperation({
    summary: "The order's NF-e/NFC-e items (det and total)",
    description:
      "The `det` elements and the `total` of the order's NF-e (model 55) or NFC-e (model 65), from its stored enrichment as it stands (after a transfer, the re-taxed one), in the layout of NF-e 4.00 with the reform groups (PL_010_V1.30): element names exactly the schema's, each value the schema's text, the `det` attribute `nItem` as the property `@nItem`. " +
      "Copied into an `infNFe`, they validate against the schema and pass SEFAZ's checks of items and totals (see docs/fiscal-documents.md). " +
      '`Accept: application/xml` answers the same items as `<NFeItens xmlns="http://www.portalfiscal.inf.br/nfe">` holding the `det` elements and one `total`; otherwise JSON. ' +
      "A client limited to stores reads only its stores' orders: another store's order answers 404 as an unknown one.",
  })
  @ApiParam({ name: 'orderId', description: "The order's orderId", example: 'ORD-2026-000123' })
  @ApiProduces('application/json', XML)
  @ApiOkResponse({
    description: 'The items, as JSON or (with Accept: application/xml) XML',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(NfeItemsDto) } },
      [XML]: { schema: { type: 'string', example: NFE_ITEMS_XML_EXAMPLE } },
    },
  })
  @ApiErrors([400, 404, 422], {
    400: '`model` is not 65 or 55, or `freightAs` is not vFrete or vOutro',
    404: 'No order has this orderId (or it is of a store this client may not touch)',
    422: "NFE_NOT_ISSUABLE: the order cannot be printed; one detail per cause, naming the item's path and the cause's code",
  })
  @ApiDomainErrors(422, { NFE_NOT_ISSUABLE: NfeNotIssuableErrorDto })
  async items(
    @Param('orderId') orderId: string,
    @Query() query: NfeQueryDto,
    @Headers('accept') accept: string | undefined,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NfeItemsDto | string> {
    const items = await this.nfe.forOrder(orderId, actor, { model: query.model ?? '65', freightAs: query.freightAs ?? 'vFrete' });
    if (!wantsXml(accept)) return items as NfeItemsDto;
    reply.header('content-type', `${XML}; charset=utf-8`);
    return this.nfe.xml(items);
  }
}
