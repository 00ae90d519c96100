import { Writable } from 'node:stream';
import { loadConfig } from '../../config/app-config.js';
import { createRootLogger, logFormatFor, PinoNestLogger } from './logger.js';

/** A stream keeping what the logger writes. */
function captured(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('logFormatFor', () => {
  const development = { isProduction: false, logFormat: undefined };

  it('writes readable lines to a terminal outside production, JSON to anything else', () => {
    expect(logFormatFor(development, true)).toBe('pretty');
    expect(logFormatFor(development, false)).toBe('json');
  });

  it('follows LOG_FORMAT outside production, terminal or not', () => {
    expect(logFormatFor({ ...development, logFormat: 'json' }, true)).toBe('json');
    expect(logFormatFor({ ...development, logFormat: 'pretty' }, false)).toBe('pretty');
  });

  it('writes JSON in production, even on a terminal', () => {
    expect(logFormatFor({ isProduction: true, logFormat: undefined }, true)).toBe('json');
  });

  it('refuses LOG_FORMAT=pretty in production at start, and reads json or pretty in any case', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@db/x',
      JWT_SECRET: '4b1f0e9a7c2d58e3f6a90b1c2d3e4f5a6b7c8d9e0f1a',
      PERSONAL_DATA_KEY: '6f1e9d2c8b7a4e3f5a0c1d2e3f4a5b6c7d8e9f0a',
    };
    expect(() => loadConfig({ ...production, LOG_FORMAT: 'pretty' })).toThrow(/LOG_FORMAT=pretty is not accepted when NODE_ENV=production/);
    expect(loadConfig({ ...production, LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'Pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be one of json, pretty/);
  });
});

describe('createRootLogger', () => {
  it('writes a readable line in the pretty format, with the context before the message and secrets hidden', () => {
    const out = captured();
    createRootLogger('info', out.stream, 'pretty').info(
      { context: 'Http', url: '/api/auth/password-links/s3cr3t-t0ken' },
      'request completed',
    );
    const line = out.text();
    expect(line).not.toMatch(/^\{/);
    expect(line).toMatch(/INFO.*Http: request completed/);
    expect(line).toContain('/api/auth/password-links/[redacted]');
    expect(line).not.toContain('s3cr3t-t0ken');
  });

  it("keeps Nest's module-by-module start-up lines at debug, and its other lines at info", () => {
    const out = captured();
    const nest = new PinoNestLogger(createRootLogger('info', out.stream, 'json'));
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('OrdersController {/api/admin/orders}:', 'RoutesResolver');
    nest.log('Mapped {/api/admin/orders, GET} route', 'RouterExplorer');
    nest.log('Nest application successfully started', 'NestApplication');
    const lines = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string });
    expect(lines.map((line) => line.msg)).toEqual(['Nest application successfully started']);
  });
});
