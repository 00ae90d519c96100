import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';

export class StatusAliasDto {
  /** The label as the point of sale sends it; matched ignoring case, accents, surrounding spaces and space/`_`/`-` */
  @ApiProperty({ example: 'Por Asignar' })
  @IsDefined({ message: '$property is required' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: '$property must not be blank' })
  label: string;

  /** The order status the label means */
  @ApiProperty({ example: 'READY' })
  @IsDefined({ message: '$property is required' })
  @IsIn(ORDER_STATUSES)
  status: OrderStatus;
}

export const STATUS_ALIASES_EXAMPLE = {
  aliases: [
    { label: 'Pedido Recibido', status: 'ACCEPTED' },
    { label: 'En Preparacion', status: 'IN_PREPARATION' },
    { label: 'Por Asignar', status: 'READY' },
    { label: 'Asignado', status: 'READY' },
    { label: 'En Camino', status: 'DISPATCHED' },
    { label: 'Entregado', status: 'DELIVERED' },
    { label: 'Anulada', status: 'CANCELLED' },
    { label: 'Anulado', status: 'CANCELLED' },
    { label: 'Cancelado', status: 'CANCELLED' },
    { label: 'Rechazado', status: 'REJECTED' },
  ],
};

/** The whole alias table (GET answers it, PUT replaces it). */
export class StatusAliasesDto {
  @ApiProperty({ example: STATUS_ALIASES_EXAMPLE.aliases })
  @IsDefined({ message: '$property is required' })
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => StatusAliasDto)
  aliases: StatusAliasDto[];
}
