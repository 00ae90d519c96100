import { GroupCommit, type GroupCommitOptions } from './group-commit.js';

interface Item {
  id: string;
  group?: string;
  key?: string;
}

/** A writer whose statements finish when the test says so, and which records what each statement held. */
function fakeWriter(failing: (item: Item) => boolean = () => false) {
  const statements: Array<{ ids: string[]; finish: () => void }> = [];
  const statement = <T>(ids: string[], result: () => T): Promise<T> =>
    new Promise((resolve, reject) => {
      statements.push({
        ids,
        finish: () => {
          try {
            resolve(result());
          } catch (error) {
            reject(error as Error);
          }
        },
      });
    });
  return {
    statements,
    writer: {
      writeBatch: (items: readonly Item[]) =>
        statement(
          items.map((item) => item.id),
          () => {
            if (items.some(failing)) throw new Error('the batch failed');
            return items.map((item) => `stored ${item.id}`);
          },
        ),
      writeOne: (item: Item) =>
        statement([item.id], () => {
          if (failing(item)) throw new Error(`${item.id} failed`);
          return `stored ${item.id}`;
        }),
    },
  };
}

const turn = () => new Promise((done) => setImmediate(done));

function commit(options: Partial<GroupCommitOptions<Item>> = {}, failing?: (item: Item) => boolean) {
  const fake = fakeWriter(failing);
  const group = new GroupCommit<Item, string>(
    { maxBatch: 10, maxInFlight: 1, groupOf: (item) => item.group ?? '', keyOf: (item) => item.key ?? item.id, ...options },
    fake.writer,
  );
  return { group, statements: fake.statements };
}

describe('GroupCommit', () => {
  it('writes a lone item in a statement of its own, at the end of the turn', async () => {
    const { group, statements } = commit();
    const result = group.submit({ id: 'a' });
    expect(statements).toHaveLength(0);
    await turn();
    expect(statements.map((statement) => statement.ids)).toEqual([['a']]);
    statements[0]!.finish();
    await expect(result).resolves.toBe('stored a');
  });

  it('puts the items that arrive while a statement runs together in the next one', async () => {
    const { group, statements } = commit();
    const first = group.submit({ id: 'a' });
    await turn();
    const later = ['b', 'c', 'd'].map((id) => group.submit({ id }));
    await turn();
    // One statement at a time: b, c and d wait for a's.
    expect(statements.map((statement) => statement.ids)).toEqual([['a']]);
    statements[0]!.finish();
    await first;
    await turn();
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['b', 'c', 'd']]);
    statements[1]!.finish();
    await expect(Promise.all(later)).resolves.toEqual(['stored b', 'stored c', 'stored d']);
  });

  it('runs up to maxInFlight statements at once', async () => {
    const { group, statements } = commit({ maxInFlight: 2 });
    void group.submit({ id: 'a' });
    await turn();
    void group.submit({ id: 'b' });
    await turn();
    void group.submit({ id: 'c' });
    void group.submit({ id: 'd' });
    await turn();
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['b']]);
    statements[1]!.finish();
    await turn();
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['b'], ['c', 'd']]);
  });

  it('keeps another group, a repeated key and what exceeds maxBatch for the next statement, in their order', async () => {
    const { group, statements } = commit({ maxBatch: 3 });
    void group.submit({ id: 'first' });
    await turn();
    for (const item of [{ id: 'a' }, { id: 'b', group: 'other' }, { id: 'c', key: 'a' }, { id: 'd' }, { id: 'e' }, { id: 'f' }]) {
      void group.submit(item);
    }
    statements[0]!.finish();
    await turn();
    // The oldest waiting item's group; 'c' repeats a's key; at most 3.
    expect(statements[1]!.ids).toEqual(['a', 'd', 'e']);
    statements[1]!.finish();
    await turn();
    expect(statements[2]!.ids).toEqual(['b']);
    statements[2]!.finish();
    await turn();
    expect(statements[3]!.ids).toEqual(['c', 'f']);
  });

  it('holds an item whose key is in a statement under way until that statement finishes, though another could start', async () => {
    const { group, statements } = commit({ maxInFlight: 2 });
    const first = group.submit({ id: 'a', key: 'order-1' });
    await turn();
    const second = group.submit({ id: 'b', key: 'order-1' });
    const other = group.submit({ id: 'c', key: 'order-2' });
    await turn();
    // A second statement is free: it takes c, while b waits for a's statement (else b could commit before a).
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['c']]);
    statements[1]!.finish();
    await other;
    await turn();
    expect(statements).toHaveLength(2);
    statements[0]!.finish();
    await first;
    await turn();
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['c'], ['b']]);
    statements[2]!.finish();
    await expect(second).resolves.toBe('stored b');
  });

  it("writes a failed batch's items one by one, so that one item's failure is its caller's only", async () => {
    const { group, statements } = commit({}, (item) => item.id === 'bad');
    void group.submit({ id: 'first' });
    await turn();
    const results = ['ok', 'bad', 'fine'].map((id) => group.submit({ id }).catch((error: Error) => error.message));
    statements[0]!.finish();
    await turn();
    expect(statements[1]!.ids).toEqual(['ok', 'bad', 'fine']);
    statements[1]!.finish();
    await turn();
    await turn();
    expect(statements.slice(2).map((statement) => statement.ids)).toEqual([['ok'], ['bad'], ['fine']]);
    for (const statement of statements.slice(2)) statement.finish();
    await expect(Promise.all(results)).resolves.toEqual(['stored ok', 'bad failed', 'stored fine']);
  });
});
