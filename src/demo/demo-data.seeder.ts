import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from '../fiscal-groups/fiscal-group.entity.js';
import { ProductFiscalCategoryEntity } from '../product-categories/product-fiscal-category.entity.js';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_STORE_ID, DEMO_TAX_MATRIX } from './demo-data.js';

/** With SEED_DEMO_DATA=true, loads the demo fiscal group and product categories at start; never overwrites. */
@Injectable()
export class DemoDataSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly transactions: TransactionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.seedDemoData) await this.seed();
  }

  async seed(): Promise<{ groupCreated: boolean; productsCreated: number }> {
    return this.transactions.runLocked('demoDataSeed', async (manager) => {
      const storeTaken = await manager.existsBy(FiscalGroupStoreEntity, { storeId: DEMO_STORE_ID });
      const groupExists = await manager.existsBy(FiscalGroupEntity, { externalId: DEMO_GROUP_EXTERNAL_ID });
      let groupCreated = false;
      if (!storeTaken && !groupExists) {
        const { identifiers } = await manager.insert(FiscalGroupEntity, {
          externalId: DEMO_GROUP_EXTERNAL_ID,
          name: 'Demo restaurants SP (Lucro Presumido)',
          uf: 'SP',
          taxRegime: 'LUCRO_PRESUMIDO',
          taxMatrix: DEMO_TAX_MATRIX as never,
          settings: {},
        });
        await manager.insert(FiscalGroupStoreEntity, {
          storeId: DEMO_STORE_ID,
          fiscalGroupId: identifiers[0]!.id as string,
          storeName: 'Demo Burger House - Paulista',
          position: 0,
        });
        groupCreated = true;
      }
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(ProductFiscalCategoryEntity)
        .values(
          DEMO_PRODUCTS.map(({ productId, productName, ncm, externalProductId }) => ({ productId, productName, ncm, externalProductId })),
        )
        .orIgnore()
        .returning(['productId'])
        .execute();
      const productsCreated = (inserted.raw as unknown[]).length;
      this.logger.info(
        { context: 'DemoData', storeId: DEMO_STORE_ID, groupCreated, productsCreated },
        'demo data loaded (SEED_DEMO_DATA=true)',
      );
      return { groupCreated, productsCreated };
    });
  }
}
