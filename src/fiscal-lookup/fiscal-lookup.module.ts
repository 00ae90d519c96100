import { Global, Module } from '@nestjs/common';
import { FiscalLookupService } from './fiscal-lookup.service.js';

/** Global: the fiscal write paths invalidate it, the order paths read through it. */
@Global()
@Module({ providers: [FiscalLookupService], exports: [FiscalLookupService] })
export class FiscalLookupModule {}
