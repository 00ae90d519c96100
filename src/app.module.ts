import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module.js';
import { ClientsModule } from './clients/clients.module.js';
import { UsersModule } from './users/users.module.js';
import { ChannelsModule } from './channels/channels.module.js';
import { ConfigModule } from './config/config.module.js';
import type { AppConfig } from './config/app-config.js';
import type { Logger } from './common/logging/logger.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { CommonModule } from './common/common.module.js';
import { FiscalGroupsModule } from './fiscal-groups/fiscal-groups.module.js';
import { FiscalGroupsPortsModule } from './fiscal-groups/fiscal-groups-ports.module.js';
import { ProductCategoriesModule } from './product-categories/product-categories.module.js';
import { NcmModule } from './ncm/ncm.module.js';
import { ProductCategoriesPortsModule } from './product-categories/product-categories-ports.module.js';
import { DemoModule } from './demo/demo.module.js';
import { EnrichmentModule } from './enrichment/enrichment.module.js';
import { EnrichmentPortsModule } from './enrichment/enrichment-ports.module.js';
import { FiscalDocumentsModule } from './fiscal-documents/fiscal-documents.module.js';
import { OrdersModule } from './orders/orders.module.js';
import { OrdersPortsModule } from './orders/orders-ports.module.js';
import { OrderDetailSectionsModule } from './order-detail/order-detail-sections.module.js';
import { FiscalLookupModule } from './fiscal-lookup/fiscal-lookup.module.js';
import { FulfillmentModule } from './fulfillment/fulfillment.module.js';
import { NewOrderWebhookModule } from './new-order-webhook/new-order-webhook.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { AuditModule } from './audit/audit.module.js';
import { StatusAliasesModule } from './status-aliases/status-aliases.module.js';
import { StatsModule } from './stats/stats.module.js';
import { ReportsModule } from './reports/reports.module.js';
import { FiscalImpactModule } from './fiscal-impact/fiscal-impact.module.js';
import { SingleSignOnModule } from './single-sign-on/single-sign-on.module.js';
import { PersonalDataModule } from './personal-data/personal-data.module.js';
import { PersonalDataPortsModule } from './personal-data/personal-data-ports.module.js';
import { WebhooksPortsModule } from './webhooks/webhooks-ports.module.js';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: Logger;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, logger }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, logger),
        DatabaseModule.forRoot(databaseUrl, config, logger),
        CommonModule,
        AuditModule,
        MetricsModule,
        HealthModule,
        AuthModule,
        ClientsModule,
        FiscalLookupModule,
        FiscalGroupsModule,
        ProductCategoriesModule,
        NcmModule,
        // The ports other modules own that these modules implement, bound by token (docs/adding-a-module.md, "Ports").
        FiscalGroupsPortsModule,
        ProductCategoriesPortsModule,
        DemoModule,
        OrdersModule,
        OrdersPortsModule,
        StatusAliasesModule,
        EnrichmentModule,
        EnrichmentPortsModule,
        FiscalDocumentsModule,
        WebhooksModule,
        WebhooksPortsModule,
        ChannelsModule,
        FulfillmentModule,
        OrderDetailSectionsModule,
        NewOrderWebhookModule,
        StatsModule,
        ReportsModule,
        FiscalImpactModule,
        UsersModule,
        SingleSignOnModule,
        PersonalDataModule,
        PersonalDataPortsModule,
      ],
    };
  }
}
