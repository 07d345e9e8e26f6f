/**
 * Work asked for one item at a time, done for many at once: the items
 * added while the previous batch runs (or within one turn of the event
 * loop) go to the handler together, and batches run one after another.
 * The timeline's writes go through it, so a load that observes a thousand
 * environments makes a few database statements rather than a few each.
 */
export class TickBatch<I, O> {
  private waiting: Array<{
    item: I;
    resolve: (value: O) => void;
    reject: (error: unknown) => void;
  }> = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();

  /** `handle` answers each item of a batch, in order; its failure fails every item of the batch. */
  constructor(private readonly handle: (items: I[]) => Promise<O[]>) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    this.running = this.running
      .then(() => new Promise<void>(resolve => setImmediate(resolve)))
      .then(async () => {
        this.scheduled = false;
        const batch = this.waiting.splice(0);
        try {
          const answers = await this.handle(batch.map(b => b.item));
          batch.forEach((b, i) => b.resolve(answers[i]));
        } catch (error) {
          batch.forEach(b => b.reject(error));
        }
      });
  }
}
