import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../../audit/audit-context.decorator.js';
import type { AuditContext } from '../../audit/audit-event.types.js';
import { Auth } from '../../auth/auth.decorators.js';
import { ErrorFamily } from '../../common/errors/error-families.js';
import { ErrorBodies } from '../../common/http/error-bodies.decorator.js';
import { UuidPipe } from '../../common/http/uuid.pipe.js';
import { ApiErrors } from '../../common/openapi/api-errors.decorator.js';
import { TwoFactorRequirementDto } from '../dto/two-factor.dto.js';
import { TwoFactorService } from './two-factor.service.js';

/** What an admin manages of two-factor sign-in: the roles that require it, and a person's reset. */
@ApiTags('People')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin')
@Auth('admin', { role: 'admin' })
export class TwoFactorAdminController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get('settings/two-factor')
  @ApiOperation({
    summary: 'Roles that require two-factor sign-in',
    description: 'The roles whose people must sign in with a second factor.',
  })
  @ApiOkResponse({ type: TwoFactorRequirementDto })
  requirement(): Promise<TwoFactorRequirementDto> {
    return this.twoFactor.requirement();
  }

  @Put('settings/two-factor')
  @ApiOperation({
    summary: 'Require two-factor sign-in for roles',
    description:
      'Replaces the list (`fiscal`, `admin`). A person of a listed role without a second factor sets one up at their next password sign-in, ' +
      'before getting a session; open sessions go on until they end. Single sign-on is left to the identity provider. Audited when it changes.',
  })
  @ApiOkResponse({ type: TwoFactorRequirementDto })
  @ApiErrors([400])
  setRequirement(@Body() dto: TwoFactorRequirementDto, @Audited() audit: AuditContext): Promise<TwoFactorRequirementDto> {
    return this.twoFactor.setRequirement(dto, audit);
  }

  @Delete('users/:id/two-factor')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Reset a person’s second factor',
    description:
      'For a lost phone: deletes the person’s TOTP secret and recovery codes. They sign in with the password alone, or set up a new second ' +
      'factor at sign-in when their role requires one. Audited.',
  })
  @ApiNoContentResponse({ description: 'The second factor is removed' })
  @ApiErrors([400, 404, 409], { 409: 'TWO_FACTOR_NOT_ENABLED: the person has no second factor' })
  async reset(@Param('id', new UuidPipe()) id: string, @Audited() audit: AuditContext): Promise<void> {
    await this.twoFactor.resetByAdmin(id, audit);
  }
}
