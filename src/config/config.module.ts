import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';

/** The validated configuration and the root logger, available everywhere by injection. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ROOT_LOGGER, useValue: logger },
      ],
      exports: [APP_CONFIG, ROOT_LOGGER],
    };
  }
}
