import { Inject, Injectable } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/config-types.js';
import { pageOf, type Page } from '../common/http/pagination.js';
import { brazilianDate, NcmTable, readNcmTableFile } from './ncm-table.js';
import type { NcmCodeDto, NcmInfoDto, NcmTableVersionDto } from './dto/ncm.dto.js';

/**
 * The NCM table of NCM_TABLE_FILE, read once at start and kept in memory (see docs/ncm-table.md). Without the file the
 * service still starts: descriptions are then null, statuses `no-table`, and the search finds nothing.
 */
@Injectable()
export class NcmService {
  private readonly table: NcmTable | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(ROOT_LOGGER) logger: Logger) {
    const file = resolve(config.ncmTableFile);
    if (!existsSync(file)) {
      logger.warn({ file }, 'No NCM table: NCMs have no description and the NCM search finds nothing (npm run ncm:refresh writes it)');
      return;
    }
    try {
      this.table = new NcmTable(readNcmTableFile(file));
      logger.info({ file, version: this.table.data.version, codes: this.table.size }, 'NCM table loaded');
    } catch (error) {
      // A damaged table must not keep orders from being taxed: the service runs without it and says so.
      logger.error({ err: error, file }, 'The NCM table could not be read; NCMs have no description');
    }
  }

  version(): NcmTableVersionDto | null {
    if (!this.table) return null;
    const { version, source, fixture } = this.table.data;
    return {
      updatedAt: version.updatedAt,
      act: version.act,
      sourceUrl: source.url,
      retrievedAt: source.retrievedAt,
      codes: this.table.size,
      fixture: fixture ?? null,
    };
  }

  /** What the table says of `code` today (in Brazil). */
  describe(code: string, now = new Date()): NcmInfoDto {
    if (!this.table) return { status: 'no-table', description: null, path: [], validTo: null };
    const found = this.table.find(code, brazilianDate(now));
    if (!found) return { status: 'unknown', description: null, path: [], validTo: null };
    return { status: found.status, description: found.leaf.description, path: found.leaf.path, validTo: found.leaf.validTo };
  }

  search(query: string, page: number, pageSize: number, now = new Date()): Page<NcmCodeDto> {
    if (!this.table) return pageOf([], 0, page, pageSize);
    const day = brazilianDate(now);
    const { items, total } = this.table.search(query, (page - 1) * pageSize, pageSize);
    return pageOf(
      items.map((leaf) => ({
        ...leaf,
        status: leaf.validFrom > day ? 'not-yet-valid' : leaf.validTo < day ? 'expired' : 'valid',
      })),
      total,
      page,
      pageSize,
    );
  }
}
