// No word-based suggestions in LWIR documents. VS Code asks the completion providers of a document in
// groups, the providers registered for its language first, and stops at the first group that answers
// with an item; its word-based suggestions (the words of the open documents, `editor.wordBasedSuggestions`)
// are registered for every language and so asked last, when no other provider had an item. In an LWIR
// document that is wherever our server has nothing to offer: a step id being typed, a version, a
// description. There they popped up unasked (issue 22: `classify` typed as a step id brought up
// "Classify" from a description), and inside a snippet Tab accepted the word instead of moving to the
// next placeholder, so the next keys landed in the wrong value.
//
// The setting cannot be scoped to LWIR files (they keep the `json`/`yaml` language ids; a `[yaml]`
// default would change every YAML file). So the client answers for the server: where the server
// answered for an LWIR document with no item, the answer carries one item without a label. VS Code counts
// it as an answer, so the word-based provider is not asked, and its suggest widget never shows an item
// without a label. Documents that are not LWIR get `null` from the server and are left as they are.
// Plain functions (no `vscode` import) so that test/unit can run them; clientOptions.ts wires them in.

/** The answer of a completion provider as the language client converts it (vscode's types, structurally). */
export type CompletionAnswer<I> = I[] | { items: I[]; isIncomplete?: boolean } | null | undefined;

/**
 * The server's answer, with the hidden item added when it is an answer for an LWIR document (a list,
 * not null) holding no item. `hidden` makes the item: an empty label, nothing to insert.
 */
export function withoutWordSuggestions<I, A extends CompletionAnswer<I>>(answer: A, hidden: () => I): A {
  if (answer === null || answer === undefined) return answer;
  const items = Array.isArray(answer) ? answer : answer.items;
  if (items.length > 0) return answer;
  items.push(hidden());
  return answer;
}
