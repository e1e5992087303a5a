// Quiet typing's state over time, per document: the server's last full report, what the editor was
// given of it, the last edit, and the timer that ends the pause. No `vscode` import (quietTypingClient.ts
// adapts VS Code to it), so the races can be played in a unit test with a scripted clock.
//
// Two rules make "held diagnostics that never show" impossible by construction:
// - The pause after an edit ends when its timer fires (the edit is marked `over`), not when a clock
//   says so: a timer that fires a little early by `Date.now()` (Node's timers run on the event loop's
//   cached time, which lags the wall clock by however long the current tick has run) cannot find the
//   edit "still recent" and leave its diagnostics held with no timer left to show them.
// - Every decision that holds something arms the timer for the end of that pause; every recheck that
//   finds the editor showing less than it should asks the client for a pull (answered from the kept
//   report when it is for the document's version, else by the server), so a pull that was merged into
//   one in flight, or a report for a newer version still on its way, still ends with the full list.
import { editIsRecent, quietDiagnostics, type DiagnosticLike, type LastEdit } from "./quietTyping";

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A document as the session needs it; `text` and `cursor` are read only while an edit is recent. */
export interface SessionDocument {
  key: string;
  version: number;
  text(): string;
  /** The cursor's offset and line, or undefined when no editor shows the document. */
  cursor(): { offset: number; line: number } | undefined;
  /** Where a line starts (VS Code's document knows its lines). */
  lineOffset?(line: number): number;
}

/** What the editor was given for a document: the indicators (status bar, code lens) show the same. */
export interface ShownReport<D> {
  key: string;
  /** The document version the server's report is for. */
  version: number;
  /** The server's diagnostics. */
  items: readonly D[];
  /** What the editor shows now: `items` minus the held ones. */
  shown: readonly D[];
  held: number;
}

interface Kept<D> {
  version: number;
  resultId: string | undefined;
  items: D[];
  shown: D[];
}

export class QuietSession<D extends DiagnosticLike> {
  private readonly kept = new Map<string, Kept<D>>();
  private readonly edits = new Map<string, LastEdit>();
  private readonly timers = new Map<string, unknown>();

  /**
   * @param pull makes the client pull the document's diagnostics again; a pull it starts at once reaches
   *   `answerFromKept` synchronously (the glue's `replaying` window).
   * @param onShow told each time the editor is given a list (for the indicators).
   */
  constructor(
    private readonly clock: Clock,
    private readonly pauseMs: () => number,
    private readonly pull: (doc: SessionDocument) => void,
    private readonly onShow: (report: ShownReport<D>) => void = () => {},
  ) {}

  /** An edit ending at `offsets` of the new text. */
  edited(key: string, offsets: readonly number[]): void {
    this.edits.set(key, { at: this.clock.now(), offsets });
  }

  /** The server's full report for `version`: what the editor is given now. */
  full(doc: SessionDocument, version: number, resultId: string | undefined, items: D[]): D[] {
    const kept: Kept<D> = { version, resultId, items, shown: items };
    this.kept.set(doc.key, kept);
    return this.show(doc, kept);
  }

  /** The server said Unchanged for `resultId`: the kept report, as it is to be shown now; undefined if none is kept for it. */
  unchanged(doc: SessionDocument, resultId: string | undefined): D[] | undefined {
    const kept = this.kept.get(doc.key);
    return kept && kept.resultId === resultId ? this.show(doc, kept) : undefined;
  }

  /** A pull this session asked for: answered from the kept report when it is for the document's current version. */
  answerFromKept(doc: SessionDocument): { resultId: string | undefined; items: D[] } | undefined {
    const kept = this.kept.get(doc.key);
    return kept && kept.version === doc.version ? { resultId: kept.resultId, items: this.show(doc, kept) } : undefined;
  }

  /**
   * The cursor moved, the pause setting changed, or (`pauseOver`) the timer fired: show now what should
   * be shown now.
   */
  recheck(doc: SessionDocument, pauseOver = false): void {
    const kept = this.kept.get(doc.key);
    if (!kept) return;
    if (kept.version !== doc.version) {
      // The report is for an older text, and the edit since has started a pull of its own. Once the
      // pause is over, ask again anyway (merged into that pull if it is still in flight): whatever
      // happened to it, the editor must not keep a held list.
      if (pauseOver && kept.shown !== kept.items) this.pull(doc);
      return;
    }
    const { shown, recheckAt } = this.decide(doc, kept);
    this.arm(doc, recheckAt);
    if (!sameList(shown, kept.shown)) this.pull(doc);
  }

  /**
   * The user saved: what they typed is done, so its pause is over now (the cursor may stay in the token,
   * or come back to it later, without its problems being held again).
   */
  saved(doc: SessionDocument): void {
    const edit = this.edits.get(doc.key);
    if (edit) edit.over = true;
    this.recheck(doc);
  }

  /** What the editor was last given for `key` (undefined before the first report). */
  current(key: string): ShownReport<D> | undefined {
    const kept = this.kept.get(key);
    return kept && { key, version: kept.version, items: kept.items, shown: kept.shown, held: kept.items.length - kept.shown.length };
  }

  forget(key: string): void {
    this.disarm(key);
    this.kept.delete(key);
    this.edits.delete(key);
  }

  dispose(): void {
    for (const key of [...this.timers.keys()]) this.disarm(key);
  }

  /** The only place `kept.shown` is set: decides, arms the timer when something is held, tells the indicators. */
  private show(doc: SessionDocument, kept: Kept<D>): D[] {
    const { shown, recheckAt } = this.decide(doc, kept);
    kept.shown = shown;
    this.arm(doc, recheckAt);
    this.onShow(this.current(doc.key)!);
    return shown;
  }

  private decide(doc: SessionDocument, kept: Kept<D>): { shown: D[]; recheckAt?: number } {
    const lastEdit = this.edits.get(doc.key);
    const now = this.clock.now();
    const pauseMs = this.pauseMs();
    // The common case (no recent edit) reads neither the text nor the cursor.
    if (!editIsRecent(lastEdit, now, pauseMs)) return { shown: kept.items };
    const cursor = doc.cursor();
    const result = quietDiagnostics({
      text: doc.text(), cursor: cursor?.offset, cursorLine: cursor?.line, lineOffset: doc.lineOffset && ((line) => doc.lineOffset!(line)), lastEdit, now, pauseMs, diagnostics: kept.items,
    });
    return result.held === 0 ? { shown: kept.items } : result;
  }

  /** The timer for the end of the pause at `at` (none when nothing is held). When it fires, that edit's pause is over. */
  private arm(doc: SessionDocument, at: number | undefined): void {
    this.disarm(doc.key);
    if (at === undefined) return;
    const edit = this.edits.get(doc.key);
    this.timers.set(doc.key, this.clock.setTimeout(() => {
      this.timers.delete(doc.key);
      if (edit && this.edits.get(doc.key) === edit) edit.over = true;
      this.recheck(doc, true);
    }, Math.max(0, at - this.clock.now())));
  }

  private disarm(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) this.clock.clearTimeout(timer);
    this.timers.delete(key);
  }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a === b || (a.length === b.length && a.every((d, i) => d === b[i]));
}
