/** How a group commit writes: a batch in one statement, or one item alone after its batch failed. */
export interface GroupCommitWriter<Item, Result> {
  /** One statement for the batch; each item's result, in the order given. */
  writeBatch(items: readonly Item[]): Promise<Result[]>;
  /** The item in a statement of its own. */
  writeOne(item: Item): Promise<Result>;
}

export interface GroupCommitOptions<Item> {
  /** At most this many items per statement. */
  maxBatch: number;
  /** At most this many statements under way at once. */
  maxInFlight: number;
  /** Only items with the same group share a statement (the statement's shared parameters). */
  groupOf?: (item: Item) => string;
  /**
   * One item per key under way: a second item with the key of one being written waits until that statement has
   * finished, even when a statement could start meanwhile, so items of one key are written in the order submitted.
   */
  keyOf?: (item: Item) => string;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes items the way PostgreSQL commits (group commit): the items submitted while `maxInFlight` statements are
 * under way wait, and then go together in the next statement. An item that finds a statement free is written at the
 * end of the current turn of the event loop, so that a quiet service waits no longer than before; under load, one
 * statement, one plan and one commit serve many requests. Each caller still gets its result only once its own
 * statement has committed. A batch fails as a whole (a deadlock, one bad row): its items are then written one by one,
 * so that one item's failure is its caller's only.
 */
export class GroupCommit<Item, Result> {
  private waiting: Array<Waiting<Item, Result>> = [];
  private inFlight = 0;
  /** The keys of the items in the statements under way. */
  private readonly keysInFlight = new Set<string>();
  private scheduled = false;

  constructor(
    private readonly options: GroupCommitOptions<Item>,
    private readonly writer: GroupCommitWriter<Item, Result>,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const { batch, keys } = this.nextBatch();
      // Every waiting item's key is being written: they go when those statements finish.
      if (batch.length === 0) return;
      this.inFlight += 1;
      for (const key of keys) this.keysInFlight.add(key);
      void this.write(batch).finally(() => {
        this.inFlight -= 1;
        for (const key of keys) this.keysInFlight.delete(key);
        // What waited meanwhile goes at once: a statement just committed, so this turn of the event loop is the next one's.
        this.startBatches();
      });
    }
  }

  /**
   * The group of the oldest item that may go (its key not under way), up to `maxBatch` items of that group, one per key
   * and none whose key is under way; the others keep their place.
   */
  private nextBatch(): { batch: Array<Waiting<Item, Result>>; keys: Set<string> } {
    const { groupOf, keyOf, maxBatch } = this.options;
    const batch: Array<Waiting<Item, Result>> = [];
    const keys = new Set<string>();
    const later: Array<Waiting<Item, Result>> = [];
    let group: string | undefined;
    for (const waiting of this.waiting) {
      const key = keyOf?.(waiting.item);
      const free = key === undefined || (!keys.has(key) && !this.keysInFlight.has(key));
      const fits = free && batch.length < maxBatch && (batch.length === 0 || groupOf?.(waiting.item) === group);
      if (fits) {
        if (batch.length === 0) group = groupOf?.(waiting.item);
        if (key !== undefined) keys.add(key);
        batch.push(waiting);
      } else {
        later.push(waiting);
      }
    }
    this.waiting = later;
    return { batch, keys };
  }

  private async write(batch: Array<Waiting<Item, Result>>): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      await this.writer.writeOne(only!.item).then(only!.resolve, only!.reject);
      return;
    }
    let results: Result[];
    try {
      results = await this.writer.writeBatch(batch.map((waiting) => waiting.item));
    } catch {
      await Promise.all(batch.map((waiting) => this.writer.writeOne(waiting.item).then(waiting.resolve, waiting.reject)));
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(results[index]!));
  }
}
