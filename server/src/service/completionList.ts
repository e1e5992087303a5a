// The completion list as it goes over the wire. `{{ steps.` in a 1,000-step workflow offers ~800 step
// ids; with a text edit, a filter text and documentation on each item the answer is ~450 KB, and writing
// and reading it costs the editor more than computing it. So, as far as the client allows: no filterText
// equal to the label (the protocol's default), one shared edit range (CompletionList.itemDefaults) for
// items whose edit puts their label there, and documentation on completionItem/resolve.
import type { ClientCapabilities, CompletionItem, CompletionList, Range } from "vscode-languageserver";

export interface CompletionWire {
  /** The client reads `CompletionList.itemDefaults.editRange` (LSP 3.17). */
  editRangeDefault: boolean;
  /** The client asks completionItem/resolve for documentation it has not been given. */
  resolveDocumentation: boolean;
}

export const FULL_ITEMS: CompletionWire = { editRangeDefault: false, resolveDocumentation: false };

export function completionWireOf(capabilities: ClientCapabilities): CompletionWire {
  const completion = capabilities.textDocument?.completion;
  return {
    editRangeDefault: completion?.completionList?.itemDefaults?.includes("editRange") === true,
    resolveDocumentation: completion?.completionItem?.resolveSupport?.properties.includes("documentation") === true,
  };
}

/** `data` of an item whose documentation waits for resolve: which list (generation) and which item. */
type DocumentationRef = { lwirDoc: [number, number] };

/** Compacts lists and keeps the documentation of the last one until the client resolves an item. */
export class CompletionDocumentation {
  private generation = 0;
  private documentation: CompletionItem["documentation"][] = [];

  compact(result: CompletionList | CompletionItem[] | null, wire: CompletionWire): CompletionList | CompletionItem[] | null {
    if (result === null) return null;
    const list: CompletionList = Array.isArray(result) ? { isIncomplete: false, items: result } : result;
    let shared: Range | undefined;
    if (wire.editRangeDefault) {
      for (const item of list.items) {
        if (item.textEdit && "range" in item.textEdit && item.textEdit.newText === item.label && item.insertTextFormat !== 2) {
          shared = item.textEdit.range;
          break;
        }
      }
    }
    if (wire.resolveDocumentation) {
      this.generation++;
      this.documentation = [];
    }
    for (const item of list.items) {
      if (item.filterText === item.label) delete item.filterText;
      if (shared && item.textEdit && "range" in item.textEdit && item.textEdit.newText === item.label && item.insertTextFormat !== 2 && sameRange(item.textEdit.range, shared)) {
        delete item.textEdit;
      }
      if (wire.resolveDocumentation && item.documentation !== undefined && item.data === undefined) {
        const ref: DocumentationRef = { lwirDoc: [this.generation, this.documentation.length] };
        this.documentation.push(item.documentation);
        delete item.documentation;
        item.data = ref;
      }
    }
    if (shared) list.itemDefaults = { ...list.itemDefaults, editRange: shared };
    return Array.isArray(result) && !shared ? list.items : list;
  }

  /** completionItem/resolve: the documentation taken off the item, if it comes from the last list. */
  resolve(item: CompletionItem): CompletionItem {
    const ref = (item.data as Partial<DocumentationRef> | undefined)?.lwirDoc;
    if (Array.isArray(ref) && ref[0] === this.generation && this.documentation[ref[1]] !== undefined) {
      return { ...item, documentation: this.documentation[ref[1]] };
    }
    return item;
  }
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
