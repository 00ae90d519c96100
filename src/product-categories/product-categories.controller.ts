import { ExternalProductIdInUseErrorDto, ProductIdExistsErrorDto } from './dto/product-category-errors.dto.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import {
  CreateProductFiscalCategoryDto,
  ProductFiscalCategoryResponseDto,
  UpdateProductFiscalCategoryDto,
} from './dto/product-fiscal-category.dto.js';
import type { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';
import { ProductCategoriesService } from './product-categories.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { PageQueryDto } from '../common/http/pagination.js';
import { ProductCategoryHistoryPageDto } from './dto/product-category-history.dto.js';

const PRODUCT_ID_PARAM = { name: 'productId', description: 'The product id (text)', example: 'prod-cola-350' };

function toResponse(category: ProductFiscalCategoryEntity): ProductFiscalCategoryResponseDto {
  return {
    productId: category.productId,
    productName: category.productName,
    ncm: category.ncm,
    externalProductId: category.externalProductId,
    createdAt: category.createdAt.toISOString(),
  };
}

@ApiTags('Product fiscal categories')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/product-fiscal-categories')
@Auth('admin', { role: 'fiscal' })
export class ProductCategoriesController {
  constructor(private readonly categories: ProductCategoriesService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a product fiscal category',
    description: "Gives a product its NCM code. Orders' products are matched by `productId`, then by `externalProductId`.",
  })
  @ApiCreatedResponse({ type: ProductFiscalCategoryResponseDto })
  @ApiErrors([400, 409], {
    409: 'PRODUCT_ID_EXISTS: the productId exists; EXTERNAL_PRODUCT_ID_IN_USE: the externalProductId is used by another product. Nothing is written.',
  })
  @ApiDomainErrors(409, { PRODUCT_ID_EXISTS: ProductIdExistsErrorDto, EXTERNAL_PRODUCT_ID_IN_USE: ExternalProductIdInUseErrorDto })
  async create(@Body() dto: CreateProductFiscalCategoryDto, @Audited() audit: AuditContext): Promise<ProductFiscalCategoryResponseDto> {
    return toResponse(await this.categories.create(dto, audit));
  }

  @Get()
  @ApiOperation({ summary: 'List product fiscal categories', description: 'All categories, ordered by productId.' })
  @ApiOkResponse({ type: [ProductFiscalCategoryResponseDto] })
  async list(): Promise<ProductFiscalCategoryResponseDto[]> {
    return (await this.categories.list()).map(toResponse);
  }

  @Get(':productId')
  @ApiOperation({
    summary: 'Get a product fiscal category',
    description: 'The category of a product id (the path is the productId, as text).',
  })
  @ApiParam(PRODUCT_ID_PARAM)
  @ApiOkResponse({ type: ProductFiscalCategoryResponseDto })
  @ApiErrors([404])
  async findOne(@Param('productId') productId: string): Promise<ProductFiscalCategoryResponseDto> {
    return toResponse(await this.categories.findOne(productId));
  }

  @Get(':productId/history')
  @ApiOperation({
    summary: 'List the history of a product fiscal category',
    description:
      'Newest first, paged: every creation, change (NCM, name, externalProductId) and deletion, with its time, its actor and the fields before and after. A deleted category’s history stays readable.',
  })
  @ApiParam(PRODUCT_ID_PARAM)
  @ApiOkResponse({ type: ProductCategoryHistoryPageDto })
  @ApiErrors([400, 404], { 404: 'No category ever had this productId' })
  async history(@Param('productId') productId: string, @Query() query: PageQueryDto): Promise<ProductCategoryHistoryPageDto> {
    return this.categories.history(productId, query.page, query.pageSize);
  }

  @Put(':productId')
  @ApiOperation({
    summary: 'Update a product fiscal category',
    description: 'Only the properties sent change. `productId` cannot be sent in the body (400).',
  })
  @ApiParam(PRODUCT_ID_PARAM)
  @ApiOkResponse({ type: ProductFiscalCategoryResponseDto, description: 'Updated' })
  @ApiErrors([400, 404, 409, 500], {
    400: 'Invalid request',
    404: 'Not found',
    409: 'EXTERNAL_PRODUCT_ID_IN_USE: the externalProductId is used by another product; nothing is written',
    500: 'Internal error',
  })
  @ApiDomainErrors(409, { EXTERNAL_PRODUCT_ID_IN_USE: ExternalProductIdInUseErrorDto })
  async update(
    @Param('productId') productId: string,
    @Body() dto: UpdateProductFiscalCategoryDto,
    @Audited() audit: AuditContext,
  ): Promise<ProductFiscalCategoryResponseDto> {
    return toResponse(await this.categories.update(productId, dto, audit));
  }

  @Delete(':productId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a product fiscal category',
    description: 'Orders enriched later no longer find the product (PRODUCT_CATEGORY_NOT_FOUND); stored orders keep their taxes.',
  })
  @ApiParam(PRODUCT_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors([404])
  async remove(@Param('productId') productId: string, @Audited() audit: AuditContext): Promise<void> {
    await this.categories.remove(productId, audit);
  }
}
