import { excerptText, RESPONSE_EXCERPT_BYTES } from './webhook-sender.js';

describe('excerptText', () => {
  it('keeps a short body whole', () => {
    expect(excerptText(Buffer.from('{"ok":true}'))).toBe('{"ok":true}');
  });

  it('cuts at 4 KiB without splitting a UTF-8 character', () => {
    const ascii = excerptText(Buffer.from('x'.repeat(10_000)));
    expect(ascii).toBe('x'.repeat(RESPONSE_EXCERPT_BYTES));
    // 4095 ASCII bytes then "é" (2 bytes): byte 4096 is the middle of "é", so it is left out.
    const cut = excerptText(Buffer.from(`${'a'.repeat(4095)}éé`));
    expect(cut).toBe('a'.repeat(4095));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
  });

  it('replaces NUL, which PostgreSQL text cannot hold', () => {
    expect(excerptText(Buffer.from('a\u0000b'))).toBe('a\uFFFDb');
  });
});
