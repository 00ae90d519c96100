import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalGroupStoresRepository } from '../fiscal-groups/fiscal-group-stores.repository.js';
import { ProductCategoriesRepository } from '../product-categories/product-categories.repository.js';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_STORE_ID, DEMO_TAX_MATRIX } from './demo-data.js';

/** With SEED_DEMO_DATA=true, loads the demo fiscal group and product categories at start; never overwrites. */
@Injectable()
export class DemoDataSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly fiscalGroups: FiscalGroupStoresRepository,
    private readonly categories: ProductCategoriesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.seedDemoData) await this.seed();
  }

  async seed(): Promise<{ groupCreated: boolean; productsCreated: number }> {
    return this.transactions.runLocked('demoDataSeed', async (manager) => {
      const groupCreated = await this.fiscalGroups.insertUnlessTaken(
        manager,
        {
          externalId: DEMO_GROUP_EXTERNAL_ID,
          name: 'Demo restaurants SP (Lucro Presumido)',
          uf: 'SP',
          taxRegime: 'LUCRO_PRESUMIDO',
          taxMatrix: DEMO_TAX_MATRIX as never,
          settings: {},
        },
        [{ store_id: DEMO_STORE_ID, store_name: 'Demo Burger House - Paulista' }],
      );
      const productsCreated = await this.categories.insertMissing(manager, DEMO_PRODUCTS);
      this.logger.info(
        { context: 'DemoData', storeId: DEMO_STORE_ID, groupCreated, productsCreated },
        'demo data loaded (SEED_DEMO_DATA=true)',
      );
      return { groupCreated, productsCreated };
    });
  }
}
