import { Global, Module } from '@nestjs/common';
import { PRODUCT_CATEGORY_LOADER } from '../fiscal-lookup/fiscal-lookup.service.js';
import { ProductCategoriesModule } from './product-categories.module.js';
import { ProductCategoriesRepository } from './product-categories.repository.js';

/**
 * The product categories' side of the ports other modules own (see "Ports" in docs/adding-a-module.md). Global: the
 * fiscal lookup cannot import ProductCategoriesModule, which imports it to invalidate its caches.
 */
@Global()
@Module({
  imports: [ProductCategoriesModule],
  providers: [{ provide: PRODUCT_CATEGORY_LOADER, useExisting: ProductCategoriesRepository }],
  exports: [PRODUCT_CATEGORY_LOADER],
})
export class ProductCategoriesPortsModule {}
