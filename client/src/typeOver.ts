// Typing over the closing text the typing aids put after the cursor (`{{ | }}`), as VS Code types over
// the brackets it closes itself: a person who types the whole `{{ input.x }}` gets it once, not
// `{{  input.x } }}`. Plain functions (no `vscode` import) so that test/unit can play any sequence.
//
// The extension applies its edits from another process: VS Code refuses an edit made for a version the
// user has typed past, so the duplicate a typed key leaves may stay in the text for a few keys. The
// state therefore describes the document as it is now, duplicates included, and is followed through
// every change (the user's and the removals it asked for) until the user types elsewhere or undoes.

/** A change to the document: `removed` characters at `offset` replaced by `text`. */
export interface TextChange {
  offset: number;
  removed: number;
  text: string;
}

/** Offsets in the current text. */
export interface TypeOverState {
  /** Where the `{{` begins: a change before it ends the typing over. */
  from: number;
  /** The aid's space right after `{{`, while the next key may be the user's own (then that key is the duplicate). */
  lead?: number;
  /** Where what is left of the closing text begins. */
  at: number;
  /** What is left of the closing text (` }}`, `}}`, `}`); empty once all of it was typed over. */
  closing: string;
  /** Characters typed twice (the user's key and the aid's text): each is to be removed, one character each. */
  duplicates: number[];
}

/**
 * The state after the aid put `{{ ` + what was typed before the cursor, and `closing` after it: `from` is
 * where the `{{` begins, `cursor` where the cursor is now. The aid's space after `{{` may be typed
 * over only when nothing was typed after it yet.
 */
export function startTypeOver(from: number, cursor: number, closing: string): TypeOverState {
  return { from, lead: cursor === from + 3 ? from + 2 : undefined, at: cursor, closing, duplicates: [] };
}

const shift = (offset: number, from: number, by: number) => (offset >= from ? offset + by : offset);

/** The state after `change`; undefined when there is nothing left to follow. */
export function followChange(state: TypeOverState, change: TextChange): TypeOverState | undefined {
  const { offset, removed, text } = change;
  // a duplicate removed (the removal asked for, or the user deleting that very character)
  if (removed === 1 && text === "" && state.duplicates.includes(offset)) {
    const duplicates = state.duplicates.filter((d) => d !== offset).map((d) => shift(d, offset + 1, -1));
    return settle({ ...state, from: shift(state.from, offset + 1, -1), lead: state.lead === undefined ? undefined : shift(state.lead, offset + 1, -1), at: shift(state.at, offset + 1, -1), duplicates });
  }
  const typed = removed === 0 && text.length === 1 && text !== "\n" && text !== "\r";
  if (typed) {
    const moved = (o: number) => shift(o, offset, 1);
    const duplicates = state.duplicates.map(moved);
    // the user's space where the aid already put one: the typed one is the duplicate
    if (text === " " && state.lead !== undefined && offset === state.lead + 1) {
      return { ...state, lead: undefined, at: moved(state.at), duplicates: [...duplicates, offset].sort((a, b) => a - b) };
    }
    // the key typed right before the closing text (duplicates waiting in between) is its next character
    const pending = state.duplicates.filter((d) => d >= offset && d < state.at).length;
    // (a `}` typed where the closing is ` }}` types over its space too: `{{ x}}` as typed)
    const over = text === state.closing[0] ? 1 : text === "}" && state.closing.startsWith(" }") ? 2 : 0;
    if (over > 0 && offset + pending === state.at) {
      const at = state.at + 1; // where the closing's first character is now: it (and the space) are duplicates
      const typedOver = over === 1 ? [at] : [at, at + 1];
      return { ...state, lead: undefined, at: at + over, closing: state.closing.slice(over), duplicates: [...duplicates, ...typedOver].sort((a, b) => a - b) };
    }
    // typing inside the expression: the closing moves along
    if (offset >= state.from + 2 && offset <= state.at) {
      return { ...state, lead: undefined, at: moved(state.at), duplicates };
    }
    return settle(stopTypingOver(state, offset, 1, 0));
  }
  return settle(stopTypingOver(state, offset, text.length, removed));
}

/**
 * Any other change ends the typing over (the user went elsewhere, deleted, pasted, pressed Enter): the
 * duplicates already typed are still removed, where the change left them.
 */
function stopTypingOver(state: TypeOverState, offset: number, inserted: number, removed: number): TypeOverState {
  const end = offset + removed;
  const duplicates: number[] = [];
  for (const d of state.duplicates) {
    if (d < offset) duplicates.push(d);
    else if (d >= end) duplicates.push(d + inserted - removed);
    // a duplicate inside what the change replaced is gone with it
  }
  return { from: state.from, at: state.at, closing: "", duplicates };
}

/** Nothing to type over and nothing to remove: done. */
function settle(state: TypeOverState): TypeOverState | undefined {
  return state.closing === "" && state.duplicates.length === 0 ? undefined : state;
}
