import { Module } from '@nestjs/common';
import { PeopleForSingleSignOn, SingleSignOnPeople } from './single-sign-on-people.js';
import { SingleSignOnController } from './single-sign-on.controller.js';
import { SingleSignOnService } from './single-sign-on.service.js';

/** Sign-in through an OpenID Connect provider (docs/access.md, "Single sign-on"); people and sessions come from the global UsersModule. */
@Module({
  controllers: [SingleSignOnController],
  providers: [SingleSignOnService, { provide: SingleSignOnPeople, useClass: PeopleForSingleSignOn }],
})
export class SingleSignOnModule {}
