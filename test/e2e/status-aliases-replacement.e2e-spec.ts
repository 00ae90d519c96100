import { ok, type Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type Alias = Schemas['StatusAliasDto'];

/** PUT /api/admin/status-aliases replaces the whole table in one transaction: replacements sent together each apply, the last one wins. */
describe('PUT /api/admin/status-aliases replacements sent together (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const put = (aliases: Alias[]) => t.api.PUT('/api/admin/status-aliases', { body: { aliases } });
  const table = async () => ok(await t.api.GET('/api/admin/status-aliases'), 200).aliases;
  /** Each replacement's table, in the list's order (status, then label). */
  const variants = Array.from({ length: 4 }, (_, n): Alias[] => [
    { label: `Extra ${n}`, status: 'ACCEPTED' },
    { label: 'Por Asignar', status: 'READY' },
  ]);

  // From an empty table there is no row to lock, yet replacements must not insert the same labels at once (a 409).
  it.each(['an empty table', 'a table of one alias'])(
    'from %s, each answers 200 with its own table, and one of them is kept',
    async (start) => {
      for (let round = 0; round < 5; round++) {
        if (start === 'an empty table') ok(await put([]), 200);
        else ok(await put([{ label: 'Entregado', status: 'DELIVERED' }]), 200);
        const answers = await Promise.all(variants.map((aliases) => put([...aliases].reverse())));
        // A refused replacement shows its error body.
        expect(answers.map((answer) => answer.error ?? answer.response.status)).toEqual(variants.map(() => 200));
        expect(answers.map((answer) => ok(answer, 200).aliases)).toEqual(variants);
        expect(variants).toContainEqual(await table());
      }
    },
  );
});
