import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StatusAliasEntity } from './status-alias.entity.js';
import { StatusAliasesController } from './status-aliases.controller.js';
import { StatusAliasesService } from './status-aliases.service.js';

/** The point-of-sale status vocabulary ("Status labels" in docs/api-decisions.md): the alias table, its route and the label matching. */
@Module({
  imports: [TypeOrmModule.forFeature([StatusAliasEntity])],
  controllers: [StatusAliasesController],
  providers: [StatusAliasesService],
  exports: [StatusAliasesService],
})
export class StatusAliasesModule {}
