import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_STORE_ID, DEMO_TAX_MATRIX } from './demo-data.js';

/** Arbitrary constant: serializes seeding when several instances start together. */
const SEED_LOCK_KEY = 7_310_002;

/** With SEED_DEMO_DATA=true, loads the demo fiscal group and product categories at start; never overwrites. */
@Injectable()
export class DemoDataSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.seedDemoData) await this.seed();
  }

  async seed(): Promise<{ groupCreated: boolean; productsCreated: number }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
      const storeTaken = await manager.query('SELECT 1 FROM fiscal_group_store WHERE store_id = $1', [DEMO_STORE_ID]);
      const groupExists = await manager.query('SELECT 1 FROM fiscal_group WHERE external_id = $1', [DEMO_GROUP_EXTERNAL_ID]);
      let groupCreated = false;
      if (storeTaken.length === 0 && groupExists.length === 0) {
        const stores = [{ store_id: DEMO_STORE_ID, store_name: 'Demo Burger House - Paulista' }];
        const [group] = await manager.query(
          `INSERT INTO fiscal_group (external_id, name, uf, tax_regime, stores, tax_matrix, settings)
           VALUES ($1, 'Demo restaurants SP (Lucro Presumido)', 'SP', 'LUCRO_PRESUMIDO', $2, $3, '{}') RETURNING id`,
          [DEMO_GROUP_EXTERNAL_ID, JSON.stringify(stores), JSON.stringify(DEMO_TAX_MATRIX)],
        );
        await manager.query('INSERT INTO fiscal_group_store (store_id, fiscal_group_id) VALUES ($1, $2)', [DEMO_STORE_ID, group.id]);
        groupCreated = true;
      }
      let productsCreated = 0;
      for (const product of DEMO_PRODUCTS) {
        const inserted = await manager.query(
          `INSERT INTO product_fiscal_category (product_id, product_name, ncm, external_product_id)
           VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING product_id`,
          [product.productId, product.productName, product.ncm, product.externalProductId],
        );
        productsCreated += inserted.length;
      }
      this.logger.info(
        { context: 'DemoData', storeId: DEMO_STORE_ID, groupCreated, productsCreated },
        'demo data loaded (SEED_DEMO_DATA=true)',
      );
      return { groupCreated, productsCreated };
    });
  }
}
