import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral, EntityTarget } from 'typeorm';
import { isDeepStrictEqual } from 'node:util';
import type { AuditChanges, AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import type { GrantedToken } from '../auth/auth.service.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { ChannelStoreConfigEntity } from './channel-store-config.entity.js';
import { readOpenBody } from '../common/http/open-body.js';
import type { ParsedConfiguration } from './channels-stores.types.js';
import { CHANNELS_STORES_BODY, ChannelsStoresRequestDto, type ChannelsStoresReplacedDto } from './dto/channels-stores-request.dto.js';
import type { ChannelsStoresResponseDto } from './dto/channels-stores-response.dto.js';
import { toChannelsStoresResponse, toParsedConfiguration } from './dto/channels-stores.mapper.js';
import { SalesChannelEntity, SalesChannelRelatedListEntity } from './sales-channel.entity.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import {
  StoreChannelEntity,
  StoreChannelScheduleEntity,
  StoreChannelScheduleGroupEntity,
  StoreEntity,
  StoreScheduleEntity,
  StoreServiceEntity,
} from './store.entity.js';

/** Rows per INSERT, well under PostgreSQL's 65535 bind parameters for the widest table. */
const INSERT_CHUNK = 1000;

@Injectable()
export class ChannelsService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly fiscalGroups: FiscalLookupService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Replaces the whole store and channel configuration, for a client whose Basic
   * credentials (scope `admin`) the route's guard checked: the body, then one transaction under an advisory lock that deletes everything
   * and inserts what was sent. Concurrent calls run one after the other; a failed call changes nothing.
   */
  async replace(granted: GrantedToken, body: unknown, audit: AuditContext): Promise<ChannelsStoresReplacedDto> {
    await this.replaceConfiguration(body, audit);
    return { accessToken: granted.accessToken };
  }

  /** The same replacement for a person of role `admin` in the console: answers the configuration as stored. */
  async replaceFromConsole(body: unknown, audit: AuditContext): Promise<ChannelsStoresResponseDto> {
    await this.replaceConfiguration(body, audit);
    return this.read();
  }

  private async replaceConfiguration(body: unknown, audit: AuditContext): Promise<void> {
    const configuration = toParsedConfiguration(await readOpenBody(ChannelsStoresRequestDto, body, CHANNELS_STORES_BODY));
    await this.transactions.runLocked('channelsStoresReplacement', async (manager) => {
      const before = await this.readIn(manager);
      await this.write(manager, configuration);
      const changes = configurationChanges(before, await this.readIn(manager));
      if (Object.keys(changes).length > 0) {
        await this.audit.record(manager, audit, { action: 'replace', target: { type: 'channel-configuration', id: 'all' }, changes });
      }
    });
  }

  /** The current configuration, read from one snapshot so that it is never half of two replacements. */
  read(): Promise<ChannelsStoresResponseDto> {
    return this.transactions.run((manager) => this.readIn(manager), 'REPEATABLE READ');
  }

  private async readIn(manager: EntityManager): Promise<ChannelsStoresResponseDto> {
    const byOrdinal = { order: { ordinal: 'ASC' as const } };
    const config = await manager.findOne(ChannelStoreConfigEntity, { where: { id: 1 } });
    const channels = await manager.find(SalesChannelEntity, byOrdinal);
    const relatedLists = await manager.find(SalesChannelRelatedListEntity, byOrdinal);
    const stores = await manager.find(StoreEntity, byOrdinal);
    const services = await manager.find(StoreServiceEntity, byOrdinal);
    const storeSchedules = await manager.find(StoreScheduleEntity, byOrdinal);
    const scheduleGroups = await manager.find(StoreChannelScheduleGroupEntity, byOrdinal);
    const channelSchedules = await manager.find(StoreChannelScheduleEntity, byOrdinal);
    const storeChannels = await manager.find(StoreChannelEntity, byOrdinal);
    const fiscalGroups = await this.fiscalGroups.groupIdsByStores(
      stores.map((store) => store.storeId),
      manager,
    );
    return toChannelsStoresResponse(
      { config, channels, relatedLists, stores, services, storeSchedules, scheduleGroups, channelSchedules, storeChannels },
      fiscalGroups,
    );
  }

  private async write(manager: EntityManager, configuration: ParsedConfiguration): Promise<void> {
    // Everything hanging off a store or a channel goes with it (ON DELETE CASCADE).
    for (const entity of [StoreEntity, SalesChannelEntity, ChannelStoreConfigEntity]) {
      await manager.createQueryBuilder().delete().from(entity).execute();
    }
    await insertAll(manager, ChannelStoreConfigEntity, [{ id: 1, extra: configuration.extra }]);

    const { channels, stores } = configuration;
    await insertAll(
      manager,
      SalesChannelEntity,
      channels.map((channel, ordinal) => ({
        channelId: channel.channelId,
        ordinal,
        active: channel.active,
        channel: channel.channel,
        vendorId: channel.vendorId,
        channelReferenceName: channel.channelReferenceName,
        mediaId: channel.mediaId,
        mediaName: channel.mediaName,
        extra: channel.extra,
      })),
    );
    await insertAll(
      manager,
      SalesChannelRelatedListEntity,
      channels.flatMap((channel) =>
        channel.relatedLists.map((list, ordinal) => ({
          channelId: channel.channelId,
          ordinal,
          listId: list.listId,
          listName: list.listName,
        })),
      ),
    );

    await insertAll(
      manager,
      StoreEntity,
      stores.map((store, ordinal) => ({
        storeId: store.storeId,
        ordinal,
        name: store.name,
        active: store.active,
        vendorId: store.vendorId,
        storeCode: store.storeCode,
        taxRate: store.taxRate,
        vatRatePercentage: store.vatRatePercentage,
        phone: store.phone,
        address: store.address,
        cookTime: store.cookTime,
        deliveryId: store.deliveryId,
        minimumOrder: store.minimumOrder,
        shippingCost: store.shippingCost,
        city: store.city,
        latitude: store.latitude,
        longitude: store.longitude,
        extra: store.extra,
      })),
    );
    await insertAll(
      manager,
      StoreServiceEntity,
      stores.flatMap((store) => store.services.map((service, ordinal) => ({ storeId: store.storeId, ordinal, ...service }))),
    );
    await insertAll(
      manager,
      StoreScheduleEntity,
      stores.flatMap((store) => store.schedules.map((schedule, ordinal) => ({ storeId: store.storeId, ordinal, ...schedule }))),
    );
    await insertAll(
      manager,
      StoreChannelScheduleGroupEntity,
      stores.flatMap((store) =>
        store.schedulesByChannel.map((group, ordinal) => ({ storeId: store.storeId, ordinal, channelId: group.channelId })),
      ),
    );
    await insertAll(
      manager,
      StoreChannelScheduleEntity,
      stores.flatMap((store) =>
        store.schedulesByChannel.flatMap((group, groupOrdinal) =>
          group.schedules.map((schedule, ordinal) => ({ storeId: store.storeId, groupOrdinal, ordinal, ...schedule })),
        ),
      ),
    );
    await insertAll(
      manager,
      StoreChannelEntity,
      stores.flatMap((store) => store.storeChannels.map((channelId, ordinal) => ({ storeId: store.storeId, channelId, ordinal }))),
    );
  }
}

/**
 * The replacement's changes, one field per store (`stores.162`) and per channel (`channels.BN-DELIVERY`)
 * that was added, removed or changed, with its whole configuration before and after (null where absent).
 */
function configurationChanges(before: ChannelsStoresResponseDto, after: ChannelsStoresResponseDto): AuditChanges {
  const changes: AuditChanges = {};
  const diff = <T>(prefix: string, was: T[], is: T[], idOf: (item: T) => string) => {
    const old = new Map(was.map((item) => [idOf(item), item]));
    const now = new Map(is.map((item) => [idOf(item), item]));
    for (const id of new Set([...old.keys(), ...now.keys()])) {
      const a = old.get(id) ?? null;
      const b = now.get(id) ?? null;
      if (!isDeepStrictEqual(a, b)) changes[`${prefix}.${id}`] = { before: a, after: b };
    }
  };
  diff('stores', before.stores, after.stores, (store) => String(store.storeId));
  diff('channels', before.channels, after.channels, (channel) => channel.channelId);
  return changes;
}

async function insertAll<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, rows: Array<Partial<T>>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await manager.insert(entity, rows.slice(start, start + INSERT_CHUNK) as Parameters<EntityManager['insert']>[1]);
  }
}
