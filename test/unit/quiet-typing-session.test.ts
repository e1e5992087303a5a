// client/src/quietTypingSession.ts: quiet typing over time, played with a scripted clock and scripted
// pulls (issue #22, "held diagnostics sometimes never show"). Each test ends where the user has stopped
// typing and the pause is over: the editor must then be showing exactly the server's list.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { QuietSession, type Clock, type SessionDocument, type ShownReport } from "../../client/src/quietTypingSession";

const PAUSE = 1500;

interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  code: string;
}

/**
 * A clock whose timers run `early` ms before `now()` reaches their due time, as Node's do when the tick
 * that set them had already run that long (timers count from the event loop's cached time).
 */
class ScriptedClock implements Clock {
  t = 1_000_000;
  private timers: Array<{ due: number; fn: () => void; id: number }> = [];
  private nextId = 1;
  constructor(private readonly early = 0) {}
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = this.nextId++;
    this.timers.push({ due: this.t + ms - this.early, fn, id });
    return id;
  }
  clearTimeout(id: unknown) {
    this.timers = this.timers.filter((t) => t.id !== id);
  }
  /** Moves time on by `ms`, running the timers due meanwhile (in order, each at its due time). */
  advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.due - b.due);
      const next = this.timers[0];
      if (!next || next.due > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.due);
      next.fn();
    }
    this.t = end;
  }
  get pending() {
    return this.timers.length;
  }
}

/** One line, `prompt: x {{ steps.` typed character by character at its end. */
class Editor implements SessionDocument {
  key = "file:///w/flow.lwir.yaml";
  version = 1;
  content = "  prompt: x ";
  cursorAt: number | undefined = this.content.length;
  text() {
    return this.content;
  }
  cursor() {
    return this.cursorAt === undefined ? undefined : { offset: this.cursorAt, line: 0 };
  }
}

/** The server's report for the text: one expression.invalid on the `{{ …` when there is one. */
function serverReport(text: string): Diag[] {
  const at = text.indexOf("{{");
  if (at < 0) return [];
  return [{ range: { start: { line: 0, character: at }, end: { line: 0, character: text.length } }, message: `unsafe template: ${text.slice(at)}`, code: "expression.invalid" }];
}

/**
 * The language client around the session, as vscode-languageclient behaves: one pull in flight per
 * document (a second one is merged: it runs again when the first returns); the session's re-pull is
 * answered from its kept report when it can, else it becomes a server pull. `shown` is what the editor shows.
 */
class Client {
  shown: Diag[] = [];
  inFlight: { version: number; again: boolean } | undefined;
  session: QuietSession<Diag>;
  shows: ShownReport<Diag>[] = [];
  private replaying = false;
  private resultIds = 0;

  constructor(readonly clock: ScriptedClock, readonly editor: Editor) {
    this.session = new QuietSession<Diag>(clock, () => PAUSE, (doc) => this.repull(doc), (r) => this.shows.push(r));
  }

  type(s: string) {
    const e = this.editor;
    e.content = e.content.slice(0, e.cursorAt) + s + e.content.slice(e.cursorAt);
    e.cursorAt! += s.length;
    e.version++;
    this.session.edited(e.key, [e.cursorAt!]);
    this.pull(); // the client pulls on every change
  }

  moveCursor(offset: number) {
    this.editor.cursorAt = offset;
    this.session.recheck(this.editor);
  }

  /** A pull: starts a server request unless one is in flight (then merged). */
  pull() {
    if (this.inFlight) return void (this.inFlight.again = true);
    if (this.replaying) {
      const answer = this.session.answerFromKept(this.editor);
      if (answer) return void (this.shown = answer.items);
    }
    this.inFlight = { version: this.editor.version, again: false };
  }

  /** The server answers the request in flight (for the text as it is now, as our server does after its quiet period). */
  answer({ unchanged = false } = {}) {
    const request = this.inFlight;
    assert.ok(request, "a request is in flight");
    this.inFlight = undefined;
    const items = serverReport(this.editor.content);
    const resultId = String(unchanged ? this.resultIds : ++this.resultIds);
    const given = unchanged ? this.session.unchanged(this.editor, resultId) : this.session.full(this.editor, request.version, resultId, items);
    if (given) this.shown = given;
    if (request.again) this.pull();
  }

  private repull(_doc: SessionDocument) {
    this.replaying = true;
    try {
      this.pull();
    } finally {
      this.replaying = false;
    }
  }
}

function typeSlowly(client: Client, text: string, msPerKey = 120) {
  for (const ch of text) {
    client.type(ch);
    client.clock.advance(msPerKey);
    if (client.inFlight) client.answer();
  }
}

describe("held diagnostics always show once the pause is over", () => {
  for (const early of [0, 1, 5, 40]) {
    test(`the pause's timer fires ${early} ms early by the clock: the squiggle shows at the end of the pause`, () => {
      const clock = new ScriptedClock(early);
      const client = new Client(clock, new Editor());
      typeSlowly(client, "{{ steps.nope");
      assert.deepEqual(client.shown, [], "held while typing");
      assert.equal(clock.pending, 1, "a timer is armed for the end of the pause");
      clock.advance(PAUSE);
      assert.deepEqual(client.shown, serverReport(client.editor.content), "shown after the pause");
      assert.equal(client.inFlight, undefined, "answered from the kept report: no server round trip");
      assert.equal(clock.pending, 0);
    });
  }

  test("the re-pull at the end of the pause is merged into a pull in flight: the server's answer is shown in full", () => {
    const clock = new ScriptedClock(3);
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nope");
    client.pull(); // some other pull (a focus, a refresh) still in flight when the pause ends
    clock.advance(PAUSE);
    assert.deepEqual(client.shown, [], "nothing new yet: the re-pull waits for the one in flight");
    client.answer({ unchanged: true });
    assert.deepEqual(client.shown, serverReport(client.editor.content), "the Unchanged answer becomes the full list");
  });

  test("the last keystroke's report arrives after the pause's timer (a slow server): shown in full at once", () => {
    const clock = new ScriptedClock(2);
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nop");
    client.type("e");
    clock.advance(PAUSE + 500); // the timer for the earlier report fires; the report for "e" is still on its way
    client.answer();
    assert.deepEqual(client.shown, serverReport(client.editor.content));
  });

  test("a report for an older version kept while the pause ends: the recheck pulls the current one", () => {
    const clock = new ScriptedClock(2);
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.no");
    client.type("p");
    client.answer(); // answered, but as the report of the previous request's version
    client.type("e"); // request for "e" in flight
    clock.advance(PAUSE); // the timer armed for "p" fires; the kept report is for the version before "e"
    assert.deepEqual(client.shown, [], "still the held list: the report for the current text has not arrived");
    client.answer();
    assert.deepEqual(client.shown, serverReport(client.editor.content));
  });

  test("the cursor leaves the expression: shown at once, no timer left", () => {
    const clock = new ScriptedClock();
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nope");
    assert.deepEqual(client.shown, []);
    client.moveCursor(0);
    assert.deepEqual(client.shown, serverReport(client.editor.content));
    clock.advance(PAUSE);
    assert.deepEqual(client.shown, serverReport(client.editor.content));
  });

  test("a save ends the pause: shown at once, and not held again when the cursor comes back into the token", () => {
    const clock = new ScriptedClock();
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nope");
    assert.deepEqual(client.shown, []);
    client.session.saved(client.editor);
    assert.deepEqual(client.shown, serverReport(client.editor.content), "shown on save, the cursor still in the token");
    client.moveCursor(0);
    client.moveCursor(client.editor.content.length);
    assert.deepEqual(client.shown, serverReport(client.editor.content), "the cursor back in the token: still shown");
  });

  test("typing goes on past one pause's length: still held until the pause after the last key", () => {
    const clock = new ScriptedClock(5);
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nope.output.a.b.c.d.e.f", 200); // 6.4 s of typing
    assert.deepEqual(client.shown, []);
    clock.advance(PAUSE - 200 - 10);
    assert.deepEqual(client.shown, [], "still within the pause after the last key");
    clock.advance(10);
    assert.deepEqual(client.shown, serverReport(client.editor.content));
  });

  test("every list the editor is given is reported with its version, the server's items and how many are held", () => {
    const clock = new ScriptedClock(1);
    const client = new Client(clock, new Editor());
    typeSlowly(client, "{{ steps.nope");
    clock.advance(PAUSE);
    const last = client.shows[client.shows.length - 1];
    assert.equal(last.held, 0);
    assert.equal(last.version, client.editor.version);
    assert.deepEqual(last.shown, client.shown);
    assert.ok(client.shows.some((r) => r.held === 1 && r.shown.length === 0 && r.items.length === 1), "the held state was reported too");
    for (const r of client.shows) assert.equal(r.items.length - r.shown.length, r.held);
  });

  test("many random schedules: whenever the user has stopped and the pause is over, the editor shows the server's list", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const clock = new ScriptedClock(Math.floor(random() * 30));
      const client = new Client(clock, new Editor());
      for (const ch of "{{ steps.nope") {
        client.type(ch);
        clock.advance(Math.floor(random() * 400));
        // the server answers sometimes now, sometimes later; sometimes an unrelated pull starts
        if (client.inFlight && random() < 0.6) client.answer({ unchanged: random() < 0.2 });
        if (random() < 0.1) client.pull();
      }
      clock.advance(Math.floor(random() * 300));
      while (client.inFlight) client.answer();
      clock.advance(PAUSE);
      while (client.inFlight) client.answer();
      assert.deepEqual(client.shown, serverReport(client.editor.content), `round ${round}`);
    }
  });
});
