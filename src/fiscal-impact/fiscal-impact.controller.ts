import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ValidatedBody } from '../common/http/dto-validation.pipe.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { UuidPipe } from '../common/http/uuid.pipe.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { fiscalGroupBodyChecks } from '../fiscal-groups/fiscal-groups.service.js';
import { FiscalGroupImpactDto, FiscalGroupImpactRequestDto } from './dto/fiscal-impact.dto.js';
import { IMPACT_EXAMPLE } from './dto/fiscal-impact.example.js';
import { FiscalImpactService } from './fiscal-impact.service.js';

const RATE_CHANGE = {
  summary: 'ICMS of prepared food from 12 % to 18 %, over the last 48 hours',
  value: {
    hours: 48,
    taxMatrix: {
      '21069090': {
        NCM: '21069090',
        CEST: '',
        CST_ICMS: '00',
        ICMS_rate: 18,
        CST_PIS: '01',
        PIS_rate: 0.65,
        CST_COFINS: '01',
        COFINS_rate: 3,
        CFOP: '5102',
      },
    },
  },
};

@ApiTags('Fiscal groups')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/fiscal-groups')
@Auth('admin', { role: 'fiscal' })
export class FiscalImpactController {
  constructor(private readonly impact: FiscalImpactService) {}

  @Post(':id/impact')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Preview the impact of a change of a fiscal group',
    description:
      'Takes the body `PUT /api/admin/fiscal-groups/{id}` takes (validated the same way) and `hours` (1 to 168, default 24), and stores nothing. ' +
      "The orders of the group's stores received in the last `hours` (the newest 10,000 at most) are taxed again, with the group as it is and with the group the body would make, " +
      'by the same engine and with the product categories as they are now; the answer counts the orders and lines whose taxes change, the change of each tax total, ' +
      'the lines that would lose their taxes (with the warning they would get) and the 20 lines with the largest change. `stores` in the body is validated but does not change which orders are compared. ' +
      'A preview runs for at most `IMPACT_PREVIEW_DEADLINE_MS` (15 s by default), then stops and answers 503 `DEADLINE_EXCEEDED`; an instance runs at most 2 at once and refuses more with 429.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Fiscal group id', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  @ApiBody({ type: FiscalGroupImpactRequestDto, examples: { rateChange: RATE_CHANGE } })
  @ApiOkResponse({ type: FiscalGroupImpactDto, example: IMPACT_EXAMPLE })
  @ApiErrors([400, 404, 429, 503], {
    429: 'RATE_LIMITED: 2 previews are already running on this instance; retry after the seconds in Retry-After',
    503: 'DEADLINE_EXCEEDED: the preview ran past its deadline and was stopped (nothing is stored either way); or SERVICE_UNAVAILABLE: the database is unavailable or the instance is shutting down. Retry after the seconds in Retry-After',
  })
  preview(
    @Param('id', new UuidPipe()) id: string,
    @ValidatedBody(FiscalGroupImpactRequestDto, fiscalGroupBodyChecks) body: FiscalGroupImpactRequestDto,
  ): Promise<FiscalGroupImpactDto> {
    return this.impact.preview(id, body);
  }
}
