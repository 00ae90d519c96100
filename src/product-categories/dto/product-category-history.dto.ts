import { ApiProperty } from '@nestjs/swagger';
import { AuditActorDto } from '../../audit/dto/audit-event.dto.js';
import { CATEGORY_HISTORY_KINDS, type CategoryHistoryKind } from '../product-fiscal-category-history.entity.js';

/** The fields of a category as a history entry keeps them, before or after its change. */
export class ProductCategoryHistoryFieldsDto {
  @ApiProperty({ example: 'Coca-Cola lata 350 ml' })
  productName: string;

  @ApiProperty({ example: '22021000' })
  ncm: string;

  @ApiProperty({ example: 'SKU-778899' })
  externalProductId: string | null;
}

/** One change of a product fiscal category. */
export class ProductCategoryHistoryEntryDto {
  @ApiProperty({ example: 'prod-cola-350' })
  productId: string;

  /** The write that made it (`initial`: the category as it was when its history began to be kept) */
  @ApiProperty({ enum: CATEGORY_HISTORY_KINDS, example: 'update' })
  kind: CategoryHistoryKind;

  /** When the change was made */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  at: string;

  /** Who made it; null for a write that names no actor (demo seeding, SQL by hand, the initial entry) */
  actor: AuditActorDto | null;

  /** The category before the change; null on `create` and `initial` */
  before: ProductCategoryHistoryFieldsDto | null;

  /** The category after the change; null on `delete` */
  after: ProductCategoryHistoryFieldsDto | null;
}

export class ProductCategoryHistoryPageDto {
  /** Newest first */
  items: ProductCategoryHistoryEntryDto[];

  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 20 })
  pageSize: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}
