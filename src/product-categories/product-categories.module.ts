import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductCategoriesController } from './product-categories.controller.js';
import { ProductCategoriesRepository } from './product-categories.repository.js';
import { ProductCategoriesService } from './product-categories.service.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([ProductFiscalCategoryEntity])],
  controllers: [ProductCategoriesController],
  providers: [ProductCategoriesService, ProductCategoriesRepository],
  exports: [ProductCategoriesService, ProductCategoriesRepository],
})
export class ProductCategoriesModule {}
