import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from './fiscal-group.entity.js';
import { FiscalGroupsController } from './fiscal-groups.controller.js';
import { FiscalGroupsService } from './fiscal-groups.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([FiscalGroupEntity, FiscalGroupStoreEntity])],
  controllers: [FiscalGroupsController],
  providers: [FiscalGroupsService],
  exports: [FiscalGroupsService],
})
export class FiscalGroupsModule {}
