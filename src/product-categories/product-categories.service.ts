import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { externalProductIdInUse, productIdExists } from './dto/product-category-errors.dto.js';
import type { CreateProductFiscalCategoryDto, UpdateProductFiscalCategoryDto } from './dto/product-fiscal-category.dto.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';

@Injectable()
export class ProductCategoriesService {
  constructor(
    @InjectRepository(ProductFiscalCategoryEntity) private readonly categories: Repository<ProductFiscalCategoryEntity>,
    private readonly lookup: FiscalLookupService,
  ) {}

  async create(dto: CreateProductFiscalCategoryDto): Promise<ProductFiscalCategoryEntity> {
    try {
      await this.write(() =>
        this.categories.insert({
          productId: dto.productId,
          productName: dto.productName,
          ncm: dto.ncm,
          externalProductId: dto.externalProductId ?? null,
        }),
      );
    } catch (error) {
      throw await this.explainConflict(error, dto.productId, dto.externalProductId);
    }
    return this.findOne(dto.productId);
  }

  list(): Promise<ProductFiscalCategoryEntity[]> {
    return this.categories.find({ order: { productId: 'ASC' } });
  }

  async findOne(productId: string): Promise<ProductFiscalCategoryEntity> {
    const category = await this.categories.findOneBy({ productId });
    if (!category) throw ApiError.notFound(`Product fiscal category ${productId} not found`);
    return category;
  }

  async update(productId: string, dto: UpdateProductFiscalCategoryDto): Promise<ProductFiscalCategoryEntity> {
    const changes: Partial<ProductFiscalCategoryEntity> = {};
    if (dto.productName !== undefined) changes.productName = dto.productName;
    if (dto.ncm !== undefined) changes.ncm = dto.ncm;
    if (dto.externalProductId !== undefined) changes.externalProductId = dto.externalProductId;
    if (Object.keys(changes).length === 0) return this.findOne(productId);
    try {
      const result = await this.write(() => this.categories.update({ productId }, changes));
      if (!result.affected) throw ApiError.notFound(`Product fiscal category ${productId} not found`);
    } catch (error) {
      throw await this.explainConflict(error, productId, dto.externalProductId ?? undefined);
    }
    return this.findOne(productId);
  }

  async remove(productId: string): Promise<void> {
    const result = await this.write(() => this.categories.delete({ productId }));
    if (!result.affected) throw ApiError.notFound(`Product fiscal category ${productId} not found`);
  }

  /** A write, after which this instance's cached lookups are dropped (others hear it through NOTIFY). */
  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      this.lookup.invalidate();
    }
  }

  private async explainConflict(error: unknown, productId: string, externalProductId: string | null | undefined): Promise<unknown> {
    const constraint = uniqueViolation(error);
    if (constraint === 'product_fiscal_category_pkey') return productIdExists(productId);
    if (constraint === 'uq_product_fiscal_category_external_product_id') {
      const other = await this.categories.findOne({ where: { externalProductId: externalProductId! }, select: { productId: true } });
      return externalProductIdInUse(externalProductId!, other?.productId);
    }
    return error;
  }
}
