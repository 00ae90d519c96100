import { Module } from '@nestjs/common';
import { FiscalGroupStoresRepository } from './fiscal-group-stores.repository.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from './fiscal-group.entity.js';
import { FiscalGroupsController } from './fiscal-groups.controller.js';
import { FiscalGroupRevisionsController } from './fiscal-group-revisions.controller.js';
import { FiscalGroupsService } from './fiscal-groups.service.js';
import { FiscalGroupRevisionEntity } from './fiscal-group-revision.entity.js';
import { FiscalGroupRevisionsRepository } from './fiscal-group-revisions.repository.js';
import { FiscalGroupRevisions } from './fiscal-group-revisions.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([FiscalGroupEntity, FiscalGroupStoreEntity, FiscalGroupRevisionEntity])],
  controllers: [FiscalGroupsController, FiscalGroupRevisionsController],
  providers: [FiscalGroupsService, FiscalGroupStoresRepository, FiscalGroupRevisionsRepository, FiscalGroupRevisions],
  exports: [FiscalGroupsService, FiscalGroupStoresRepository, FiscalGroupRevisions],
})
export class FiscalGroupsModule {}
