import { describe, expect, it } from 'vitest';
import { changeLines, changeValueText } from './audit-model';

describe("an audit event's changes", () => {
  it('reads each field as before → after, absent values as a dash and structures as JSON', () => {
    expect(
      changeLines({
        changes: {
          name: { before: 'POS 162', after: 'POS 162 Centro' },
          stores: { before: ['162'], after: ['162', '163'] },
          active: { before: true, after: false },
          secret: { before: null, after: null },
        },
      }),
    ).toEqual([
      { field: 'name', before: 'POS 162', after: 'POS 162 Centro' },
      { field: 'stores', before: '["162"]', after: '["162","163"]' },
      { field: 'active', before: 'true', after: 'false' },
      { field: 'secret', before: '—', after: '—' },
    ]);
  });

  it('has no line for an event that changed no field (a sign-in)', () => {
    expect(changeLines({ changes: {} })).toEqual([]);
    expect(changeValueText(0)).toBe('0');
  });
});
