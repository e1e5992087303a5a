// When a pushed validation runs: after the quiet period (`lwir.validation.delay`; 0 = the next microtask,
// no timer), at most one pending per document (a new edit replaces it), and requests first. Validation is
// synchronous (tens of ms for 1,000 steps), so a request the client has already sent (completion right
// after the `.` the user typed) must not sit behind one that has not started yet: while any request is
// outstanding (outstandingRequests.ts) the validation yields a macrotask at a time, for at most
// MAX_YIELD_MS, so a flood of requests cannot starve it.

/** A validation yields to waiting requests for at most this long. */
const MAX_YIELD_MS = 500;

type Cancel = () => void;

export class ValidationScheduler {
  /** The pending validation of each document. */
  private readonly pending = new Map<string, Cancel>();

  constructor(private readonly requestsOutstanding: () => boolean) {}

  /** Runs `validate` for `uri` after `delay` ms, in place of any validation of it still pending. */
  schedule(uri: string, delay: number, validate: () => void): void {
    this.cancel(uri);
    let live = true;
    let yieldUntil = 0;
    const run = () => {
      if (!live) return;
      if (this.requestsOutstanding()) {
        yieldUntil ||= Date.now() + MAX_YIELD_MS;
        if (Date.now() < yieldUntil) {
          const timer = setTimeout(run, 0);
          this.pending.set(uri, () => { live = false; clearTimeout(timer); });
          return;
        }
      }
      live = false;
      this.pending.delete(uri);
      validate();
    };
    if (delay === 0) {
      queueMicrotask(run);
      this.pending.set(uri, () => { live = false; });
    } else {
      const timer = setTimeout(run, delay);
      this.pending.set(uri, () => { live = false; clearTimeout(timer); });
    }
  }

  /** Is a validation of `uri` pending (it will publish whatever the document is then)? */
  has(uri: string): boolean {
    return this.pending.has(uri);
  }

  cancel(uri: string): void {
    this.pending.get(uri)?.();
    this.pending.delete(uri);
  }

  cancelAll(): void {
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
