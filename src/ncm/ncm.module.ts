import { Module } from '@nestjs/common';
import { NcmController } from './ncm.controller.js';
import { NcmService } from './ncm.service.js';

/** The NCM table Receita Federal publishes, in memory: descriptions of the categories' NCMs and the search (docs/ncm-table.md). */
@Module({
  controllers: [NcmController],
  providers: [NcmService],
  exports: [NcmService],
})
export class NcmModule {}
