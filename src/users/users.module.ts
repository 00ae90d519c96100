import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { MailModule } from '../mail/mail.module.js';
import { SessionAuthenticator } from '../auth/session-authenticator.js';
import { AppUserEntity } from './app-user.entity.js';
import { PasswordLinkEntity } from './password-link.entity.js';
import { SessionController } from './session.controller.js';
import { SessionsService } from './sessions.service.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { UserSessionEntity } from './user-session.entity.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';
import { TwoFactorAdminController } from './two-factor/two-factor-admin.controller.js';
import { TwoFactorRequirementEntity } from './two-factor/two-factor-requirement.entity.js';
import { TwoFactorController } from './two-factor/two-factor.controller.js';
import { TwoFactorService } from './two-factor/two-factor.service.js';
import { UserRecoveryCodeEntity } from './two-factor/user-recovery-code.entity.js';
import { UserTotpEntity } from './two-factor/user-totp.entity.js';

/**
 * People, their sessions and password links. Global so that the access guard (in the auth
 * module, which this module needs) finds `SessionAuthenticator` without importing this folder.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      AppUserEntity,
      PasswordLinkEntity,
      UserSessionEntity,
      UserTotpEntity,
      UserRecoveryCodeEntity,
      TwoFactorRequirementEntity,
    ]),
    AuthModule,
    MailModule,
  ],
  controllers: [SessionController, UsersController, TwoFactorController, TwoFactorAdminController],
  providers: [
    UsersService,
    SessionsService,
    UsersRepository,
    SignInThrottle,
    TwoFactorService,
    { provide: SessionAuthenticator, useExisting: SessionsService },
  ],
  exports: [UsersService, SessionsService, SessionAuthenticator],
})
export class UsersModule {}
