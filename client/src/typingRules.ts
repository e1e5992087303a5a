// What typing in an LWIR document does beyond VS Code's JSON and YAML language settings, which apply to
// every JSON or YAML file (LWIR files keep those language ids): these rules are for LWIR documents only.
// Plain functions (no `vscode` import) so that test/unit can run them; typingAids.ts applies them.
//
// - `{{` typed in a JSON string closes to `{{ | }}`. VS Code closes `{` in YAML (`{{|}}`, which gets its
//   two spaces here too) but not inside a JSON string, where every `{{ }}` expression of a JSON workflow
//   is written.
// - Enter at the end of a YAML step's line puts the cursor where the next key goes. VS Code keeps the
//   line's indentation, or adds one level after a line ending in `:` or `-`: after `- id: classify` the
//   next key of that step (`uses:`) goes under `id`, two columns right of the dash, not under the dash.

/** A JSON string is open at `column` of `line`: an odd number of unescaped quotes before it. */
export function inJsonString(line: string, column: number): boolean {
  let open = false;
  for (let i = 0; i < column && i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && open) i++;
    else if (c === '"') open = !open;
  }
  return open;
}

/**
 * After a `{` typed in a JSON document, the cursor now at `cursor` of `line` (the line's new text): the
 * text to put around the cursor when that made a `{{` inside a string, else undefined. Not after a third
 * `{`, nor where the `}}` already follows.
 */
export function closeTemplate(line: string, cursor: number): { before: string; after: string } | undefined {
  if (cursor < 2 || line.slice(cursor - 2, cursor) !== "{{" || line[cursor - 3] === "{") return undefined;
  if (!inJsonString(line, cursor - 2)) return undefined;
  if (/^\s*\}\}/.test(line.slice(cursor))) return undefined;
  return { before: " ", after: " }}" };
}

/**
 * After a `{` typed in a YAML document where VS Code did not close it (it does not before a word): whether
 * that made a `{{` to close as in JSON. Not after a third `{`, nor where `}}` already follows, nor in a comment.
 */
export function closeYamlTemplate(line: string, cursor: number): boolean {
  if (cursor < 2 || line.slice(cursor - 2, cursor) !== "{{" || line[cursor - 3] === "{") return false;
  if (/(^|\s)#/.test(line.slice(0, cursor - 2))) return false;
  return !/^\s*\}\}/.test(line.slice(cursor));
}

/**
 * After a `{` typed in a YAML document, where VS Code closed both braces (`{{|}}`): the spaces to put
 * around the cursor, so that YAML gives `{{ | }}` as JSON does; else undefined.
 */
export function spaceTemplate(line: string, cursor: number): { before: string; after: string } | undefined {
  if (cursor < 2 || line.slice(cursor - 2, cursor) !== "{{" || line[cursor - 3] === "{") return undefined;
  if (!line.startsWith("}}", cursor) || line[cursor + 2] === "}") return undefined;
  return { before: " ", after: " " };
}

/** `- key: value` (a sequence item that is a mapping), `key:` opening a block, `key: value`. */
const ITEM_MEMBER = /^(\s*)-( +)([^\s#'"{[][^#]*?|"[^"]*"|'[^']*'):(?:[ \t]+([^#\s].*?))?[ \t]*(?:#.*)?$/;
const KEY_ONLY = /^(\s*)([^\s#'"{[\-][^#]*?|"[^"]*"|'[^']*'):[ \t]*(?:#.*)?$/;
const KEY_VALUE = /^(\s*)([^\s#'"{[\-][^#]*?|"[^"]*"|'[^']*'):[ \t]+[^#\s].*$/;

/**
 * YAML: the column where the next line goes after Enter at the end of `line`, when the line says (a
 * mapping member, or a sequence item holding one); undefined elsewhere (a block scalar's text, a plain
 * list item, a comment, a flow collection left open), where the editor's own rule stays.
 */
export function yamlEnterColumn(line: string): number | undefined {
  const item = ITEM_MEMBER.exec(line);
  if (item) {
    const keyColumn = item[1].length + 1 + item[2].length;
    const value = item[4];
    if (value === undefined) return keyColumn + 2; // `- with:`: its block is indented under the key
    if (/^[|>]/.test(value) || /^[{[]/.test(value) && !/[}\]]\s*$/.test(value)) return undefined;
    return keyColumn;
  }
  const key = KEY_ONLY.exec(line);
  if (key) return key[1].length + 2;
  const member = KEY_VALUE.exec(line);
  if (member) {
    const value = line.slice(line.indexOf(":", member[1].length + member[2].length) + 1).trim();
    if (/^[|>]/.test(value) || /^[{[]/.test(value) && !/[}\]]\s*(#.*)?$/.test(value)) return undefined;
    return member[1].length;
  }
  return undefined;
}

/**
 * The aid's `{{ | }}` lands after the keys typed since `{{` when VS Code refused it for an older text
 * (the user typed on): what was typed between `{{` (at `from`) and the cursor, which goes inside, or
 * undefined when the aid is no longer wanted: the user typed a space, a brace or a quote themselves. Text
 * after the cursor stays after the closing (`{{` typed before a word). `closedByEditor`: VS Code's own `}}`
 * follows (YAML).
 */
export function typedSinceOpening(text: string, from: number, cursor: number, closedByEditor: boolean): string | undefined {
  if (text.slice(from, from + 2) !== "{{" || text[from + 2] === "{" || cursor < from + 2) return undefined;
  const typed = text.slice(from + 2, cursor);
  if (!/^[A-Za-z0-9_.\[\]()-]*$/.test(typed)) return undefined;
  const after = text.slice(cursor, cursor + 3);
  if (closedByEditor) return after.startsWith("}}") && after[2] !== "}" ? typed : undefined;
  return /^\s*\}\}/.test(text.slice(cursor, cursor + 80)) ? undefined : typed;
}
