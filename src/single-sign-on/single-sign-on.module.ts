import { Module } from '@nestjs/common';
import { NoPeopleYet, SingleSignOnPeople } from './single-sign-on-people.js';
import { SingleSignOnController } from './single-sign-on.controller.js';
import { SingleSignOnService } from './single-sign-on.service.js';

/** Sign-in through an OpenID Connect provider (docs/access.md, "Single sign-on"). */
@Module({
  controllers: [SingleSignOnController],
  providers: [SingleSignOnService, { provide: SingleSignOnPeople, useClass: NoPeopleYet }],
})
export class SingleSignOnModule {}
