import { SingleFlight } from '../../infra/single-flight';

/** Each scope's last-seen head; one older than `trust.ms` is learned again first: retention may have removed what it stood above. */
export class RememberedHeads<H extends { n: number }> {
  private readonly heads = new Map<string, { head: H; learnedAt: number }>();
  private readonly learning = new SingleFlight<string, H>();

  constructor(private readonly kept: number, private readonly trust = { ms: Infinity, now: Date.now }) {}

  get(scope: string): H | null {
    return this.heads.get(scope)?.head ?? null;
  }

  later(scope: string, known: H | null): H | null {
    const remembered = this.get(scope);
    return known && known.n > (remembered?.n ?? -Infinity) ? known : remembered;
  }

  /** Remembers `head` if it is past the one remembered (which keeps its learning time). */
  raise(scope: string, head: H): void {
    const known = this.heads.get(scope);
    if (!known) this.keep(scope, head, -Infinity);
    else if (head.n > known.head.n) known.head = head;
  }

  /** The head, learned first by `search` when none is remembered or it is no longer trusted. */
  async trusted(scope: string, search: (remembered: H | null) => Promise<H>): Promise<H> {
    const known = this.heads.get(scope);
    return known && this.trust.now() - known.learnedAt <= this.trust.ms ? known.head : this.learn(scope, search);
  }

  /** The number after the later of the head and `known`, raised at once: no two callers get the same. */
  advance(this: RememberedHeads<{ n: number }>, scope: string, known: { n: number }): number {
    const n = (this.later(scope, known) as { n: number }).n + 1;
    this.raise(scope, { n });
    return n;
  }

  /** Learns the head by `search`, one search at a time per scope: callers meanwhile share it (with `join: false`, start the next). */
  learn(scope: string, search: (remembered: H | null) => Promise<H>, join = true): Promise<H> {
    const run = async () => {
      const learnedAt = this.trust.now();
      const head = this.later(scope, await search(this.get(scope))) as H;
      this.keep(scope, head, learnedAt);
      return head;
    };
    return this.learning.run(scope, run, { join });
  }

  /** Kept as the newest: the scope learned longest ago is forgotten first. */
  private keep(scope: string, head: H, learnedAt: number): void {
    this.heads.delete(scope);
    this.heads.set(scope, { head, learnedAt });
    if (this.heads.size > this.kept) this.heads.delete(this.heads.keys().next().value as string);
  }
}
