import { Module } from '@nestjs/common';
import { DefaultTaxEngine } from './default-tax-engine.js';
import { TAX_ENGINE } from './tax-engine.js';

/** Binds the `TaxEngine` interface to its default implementation; inject it with `@Inject(TAX_ENGINE)`. */
@Module({ providers: [{ provide: TAX_ENGINE, useClass: DefaultTaxEngine }], exports: [TAX_ENGINE] })
export class TaxEngineModule {}
