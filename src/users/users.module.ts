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

/**
 * People, their sessions and password links. Global so that the access guard (in the auth
 * module, which this module needs) finds `SessionAuthenticator` without importing this folder.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AppUserEntity, PasswordLinkEntity, UserSessionEntity]), AuthModule, MailModule],
  controllers: [SessionController, UsersController],
  providers: [
    UsersService,
    SessionsService,
    UsersRepository,
    SignInThrottle,
    { provide: SessionAuthenticator, useExisting: SessionsService },
  ],
  exports: [UsersService, SessionsService, SessionAuthenticator],
})
export class UsersModule {}
