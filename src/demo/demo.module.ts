import { Module } from '@nestjs/common';
import { FiscalGroupsModule } from '../fiscal-groups/fiscal-groups.module.js';
import { ProductCategoriesModule } from '../product-categories/product-categories.module.js';
import { DemoDataSeeder } from './demo-data.seeder.js';

/** Writes the demo rows through the repositories of the modules that own them. */
@Module({ imports: [FiscalGroupsModule, ProductCategoriesModule], providers: [DemoDataSeeder], exports: [DemoDataSeeder] })
export class DemoModule {}
