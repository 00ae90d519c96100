import { revisionAt, type GroupRevision } from './fiscal-lookup.service.js';

const revision = (number: number, effectiveFrom: number): GroupRevision => ({
  revision: number,
  effectiveFrom,
  group: { id: 'g', externalId: null, uf: 'SP', taxRegime: null, taxMatrix: {}, settings: {} },
});

describe('revisionAt', () => {
  const revisions = [revision(1, 1000), revision(2, 5000), revision(4, 5000), revision(3, 9000)];

  it('picks the last revision that took effect at or before the instant; on equal instants the later revision', () => {
    expect(revisionAt(revisions, 4999).revision).toBe(1);
    expect(revisionAt(revisions, 5000).revision).toBe(4);
    expect(revisionAt(revisions, 8999).revision).toBe(4);
    expect(revisionAt(revisions, 9000).revision).toBe(3);
  });

  it('takes the first revision for an instant before it', () => {
    expect(revisionAt(revisions, 0).revision).toBe(1);
  });
});
