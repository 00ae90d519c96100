import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { ChannelStoreConfigEntity } from './channel-store-config.entity.js';
import { ChannelsAdminController } from './channels-admin.controller.js';
import { ChannelsController } from './channels.controller.js';
import { ChannelsService } from './channels.service.js';
import { SalesChannelEntity, SalesChannelRelatedListEntity } from './sales-channel.entity.js';
import { StoresRepository } from './stores.repository.js';
import {
  StoreChannelEntity,
  StoreChannelScheduleEntity,
  StoreChannelScheduleGroupEntity,
  StoreEntity,
  StoreScheduleEntity,
  StoreServiceEntity,
} from './store.entity.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      ChannelStoreConfigEntity,
      SalesChannelEntity,
      SalesChannelRelatedListEntity,
      StoreEntity,
      StoreServiceEntity,
      StoreChannelEntity,
      StoreScheduleEntity,
      StoreChannelScheduleGroupEntity,
      StoreChannelScheduleEntity,
    ]),
    AuthModule,
  ],
  controllers: [ChannelsController, ChannelsAdminController],
  providers: [ChannelsService, StoresRepository],
  exports: [StoresRepository],
})
export class ChannelsModule {}
