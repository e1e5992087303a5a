// client/src/typeOver.ts: typing over the aid's `{{ | }}` gives what the user typed, whenever VS Code
// applies the removals the aid asks for (it refuses an edit made for a version the user typed past).
import { test } from "node:test";
import assert from "node:assert/strict";
import { followChange, startTypeOver, type TextChange, type TypeOverState } from "../../client/src/typeOver";

/** An editor with one cursor, the aid, and a schedule saying after which keys a removal gets through. */
class Editor {
  state: TypeOverState | undefined;
  constructor(public text: string, public cursor: number) {}

  apply(change: TextChange): void {
    this.text = this.text.slice(0, change.offset) + change.text + this.text.slice(change.offset + change.removed);
    if (change.offset < this.cursor) this.cursor = Math.max(change.offset + change.text.length, this.cursor + change.text.length - change.removed);
    else if (change.offset === this.cursor && change.removed === 0) this.cursor += change.text.length;
    if (this.state) this.state = followChange(this.state, change);
  }

  /** The aid: `{{` typed, then the text around the cursor becomes `{{ | }}`. */
  typeOpening(): void {
    this.type("{");
    this.type("{");
    const at = this.cursor;
    this.text = `${this.text.slice(0, at)}  }}${this.text.slice(at)}`;
    this.cursor = at + 1;
    this.state = startTypeOver(at - 2, this.cursor, " }}");
  }

  type(key: string): void {
    this.apply({ offset: this.cursor, removed: 0, text: key });
  }

  /** One removal the aid asked for gets through (the first duplicate, as the glue asks). */
  removeOne(): boolean {
    const d = this.state?.duplicates[0];
    if (d === undefined) return false;
    this.apply({ offset: d, removed: 1, text: "" });
    return true;
  }

  settle(): void {
    while (this.removeOne());
  }
}

/** Types `keys` after the opening; `through(i)` says whether a removal gets through after key i. */
function play(keys: string, through: (i: number) => boolean, prefix = '"prompt": "', suffix = '"'): string {
  const editor = new Editor(prefix + suffix, prefix.length);
  editor.typeOpening();
  [...keys].forEach((key, i) => {
    editor.type(key);
    if (through(i)) editor.removeOne();
  });
  editor.settle();
  return editor.text;
}

const schedules: Array<[string, (i: number) => boolean]> = [
  ["every removal at once", () => true],
  ["none until the pause", () => false],
  ["every other key", (i) => i % 2 === 1],
  ["every third key", (i) => i % 3 === 2],
];

test("the whole `{{ input.repo }}` typed over the aid's closing gives it once, however late the removals", () => {
  for (const [name, through] of schedules) {
    assert.equal(play(" input.repo }}", through), '"prompt": "{{ input.repo }}"', name);
    assert.equal(play("input.repo }}", through), '"prompt": "{{ input.repo }}"', `${name}: no space typed after {{`);
    assert.equal(play("input.repo}}", through), '"prompt": "{{ input.repo}}"', `${name}: no space before }}`);
  }
});

test("typing only the expression leaves the aid's closing: `{{ input.repo }}`", () => {
  for (const [name, through] of schedules) assert.equal(play("input.repo", through), '"prompt": "{{ input.repo }}"', name);
});

test("two spaces typed are two spaces; a `}` inside the expression is not typed over", () => {
  for (const [name, through] of schedules) {
    assert.equal(play("  x }}", through), '"prompt": "{{  x }}"', name);
    assert.equal(play("json({}) }}", through), '"prompt": "{{ json({}) }}"', name);
  }
});

test("a key typed elsewhere ends the typing over; duplicates already typed are still removed", () => {
  const editor = new Editor('"a": "', 6);
  editor.text += '", "b": ""';
  editor.typeOpening();
  for (const key of " x ") editor.type(key);
  assert.ok(editor.state && editor.state.duplicates.length === 2, "the lead space and the closing's space typed twice");
  // the user clicks into "b" and types there, before any removal got through
  const b = editor.text.lastIndexOf('""') + 1;
  editor.cursor = b;
  editor.type("y");
  assert.equal(editor.state?.closing, "", "nothing is typed over any more");
  editor.settle();
  assert.equal(editor.text, '"a": "{{ x }}", "b": "y"');
  assert.equal(editor.state, undefined);
});

test("Enter, a paste or a deletion over the closing ends it without touching the text", () => {
  const editor = new Editor('"p": "', 6);
  editor.text += '"';
  editor.typeOpening();
  editor.type("x");
  editor.apply({ offset: editor.cursor, removed: 3, text: "" });
  assert.equal(editor.state, undefined);
  assert.equal(editor.text, '"p": "{{ x"');
});
