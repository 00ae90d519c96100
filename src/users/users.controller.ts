import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { PageQueryDto } from '../common/http/pagination.js';
import { UuidPipe } from '../common/http/uuid.pipe.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { CreatedUserDto, CreateUserDto, PasswordLinkDto, UpdateUserDto, UserDto, UserPageDto } from './dto/user.dto.js';
import { EmailInUseErrorDto, LastAdminErrorDto } from './dto/user-errors.dto.js';
import { UsersService, type IssuedLink } from './users.service.js';

@ApiTags('People')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/users')
@Auth('admin', { role: 'admin' })
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List people', description: 'Everyone who may sign in to the console, oldest first.' })
  @ApiOkResponse({ type: UserPageDto })
  @ApiErrors([400])
  list(@Query() query: PageQueryDto): Promise<UserPageDto> {
    return this.users.list(query.page, query.pageSize);
  }

  @Post()
  @ApiOperation({
    summary: 'Invite a person',
    description:
      'Creates the person without a password, with a one-time link (valid 24 hours) where they set one. With a mail server (SMTP_URL) the link is e-mailed to the person and not answered (`emailSent: true`, `link: null`); without one, or when the e-mail fails (`emailProblem` says why), the link is answered, only here, for the admin to pass on. A failed e-mail never undoes the invitation.',
  })
  @ApiCreatedResponse({ type: CreatedUserDto })
  @ApiErrors([400, 409], { 409: 'EMAIL_IN_USE: another person has this email (whatever its case)' })
  @ApiDomainErrors(409, { EMAIL_IN_USE: EmailInUseErrorDto })
  async create(@Body() dto: CreateUserDto, @Audited() audit: AuditContext): Promise<CreatedUserDto> {
    const created = await this.users.create(dto, audit, { email: true });
    return { user: created.user, ...linkAnswer(created) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a person', description: 'One person by id.' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors([400, 404])
  get(@Param('id', new UuidPipe()) id: string): Promise<UserDto> {
    return this.users.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a person',
    description:
      'Only the properties sent change. `active: false` ends every open session of the person at once. ' +
      'The last active admin can be neither demoted nor deactivated (409 LAST_ADMIN): make another person admin first.',
  })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(
    [400, 404, 409],
    { 409: 'LAST_ADMIN: the change would leave no active person with the role admin; nothing changed' },
    {
      409: {
        message: 'This person is the last active admin; the change would leave no active admin: make another person admin first',
        error: 'LAST_ADMIN',
        details: [
          {
            field: 'role',
            problem: 'would leave no active admin: make another person admin first',
            userId: '5f0c1a52-3f7e-4b8e-9c1d-2a6b7e9d4c10',
          },
        ],
      },
    },
  )
  @ApiDomainErrors(409, { LAST_ADMIN: LastAdminErrorDto })
  update(@Param('id', new UuidPipe()) id: string, @Body() dto: UpdateUserDto, @Audited() audit: AuditContext): Promise<UserDto> {
    return this.users.update(id, dto, audit);
  }

  @Post(':id/link')
  @ApiOperation({
    summary: 'New one-time password link',
    description:
      'An invitation until the person has set a password, a reset afterwards; the person’s earlier unused links stop working. ' +
      'E-mailed to the person when the service has a mail server (then not answered), else answered, as when inviting.',
  })
  @ApiCreatedResponse({ type: PasswordLinkDto })
  @ApiErrors([400, 404])
  async newLink(@Param('id', new UuidPipe()) id: string, @Audited() audit: AuditContext): Promise<PasswordLinkDto> {
    return linkAnswer(await this.users.newLink(id, audit, { email: true }));
  }
}

/** An e-mailed link is not answered: it then exists only in the person's mailbox. */
function linkAnswer(issued: IssuedLink): PasswordLinkDto {
  return {
    link: issued.emailSent ? null : issued.link,
    linkExpiresAt: issued.linkExpiresAt,
    emailSent: issued.emailSent,
    emailProblem: issued.emailProblem,
  };
}
