import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductCategoriesController } from './product-categories.controller.js';
import { ProductCategoriesRepository } from './product-categories.repository.js';
import { ProductCategoriesService } from './product-categories.service.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';
import { ProductFiscalCategoryHistoryEntity } from './product-fiscal-category-history.entity.js';
import { ProductCategoryHistoryRepository } from './product-category-history.repository.js';
import { ProductCategoriesCsvController } from './product-categories-csv.controller.js';
import { ProductCategoriesCsvService } from './product-categories-csv.service.js';
import { NcmModule } from '../ncm/ncm.module.js';

@Module({
  imports: [TypeOrmModule.forFeature([ProductFiscalCategoryEntity, ProductFiscalCategoryHistoryEntity]), NcmModule],
  controllers: [ProductCategoriesCsvController, ProductCategoriesController],
  providers: [ProductCategoriesService, ProductCategoriesCsvService, ProductCategoriesRepository, ProductCategoryHistoryRepository],
  exports: [ProductCategoriesService, ProductCategoriesRepository],
})
export class ProductCategoriesModule {}
