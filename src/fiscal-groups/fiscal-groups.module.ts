import { Module } from '@nestjs/common';
import { FiscalGroupStoresRepository } from './fiscal-group-stores.repository.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from './fiscal-group.entity.js';
import { FiscalGroupsController } from './fiscal-groups.controller.js';
import { FiscalGroupsService } from './fiscal-groups.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([FiscalGroupEntity, FiscalGroupStoreEntity])],
  controllers: [FiscalGroupsController],
  providers: [FiscalGroupsService, FiscalGroupStoresRepository],
  exports: [FiscalGroupsService, FiscalGroupStoresRepository],
})
export class FiscalGroupsModule {}
