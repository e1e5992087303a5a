// Series 2, ours in process: text → diagnostics (parse with positions + validate + ranges + LSP diagnostics)
//   fresh: a new text every iteration (nothing cached can answer);
//   edit:  an open document in an LwirWorkspace, one character typed or deleted in a prompt per iteration;
//   completion: `{{ steps.` typed in a prompt, then completion from the text and the last analysis as the
//          server answers right after an edit (its document not rebuilt yet; JSON reads the step around
//          the cursor, YAML the whole new text), next to the floor.
import { FLOOR, applyEdit, args, completionSite, editAt, editSites, emit, interleave, positionAt, readWorkload, require, summarize, timedSync, variant } from "../lib.mjs";

const ours = require("./tmp/ours.cjs");
const a = args();
const base = readWorkload(a.file);
const floor = FLOOR[a.format];
const uri = `file:///bench/w.lwir.${a.format}`;
const out = [];

{
  let text = base;
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      fresh: (i) => {
        text = variant(base, i);
        return timedSync(() => {
          const analysis = ours.analyzeText(text, a.format);
          ours.toDiagnostics(analysis, { uri, relatedInformation: true });
        });
      },
    },
    floor: () => timedSync(() => floor.run(text)),
  });
  out.push(summarize("text → diagnostics, fresh document", "ours", a.format, a.steps, results.fresh, floor.name, floorSamples));
}

{
  // an open document: the workspace keeps what it knows between versions, as the server does
  const doc = { uri, languageId: a.format, version: 1, text: base, getText() { return this.text; } };
  const workspace = new ours.LwirWorkspace({ get: (u) => (u === uri ? doc : undefined) });
  ours.toDiagnostics(workspace.getAnalysis(uri), { uri, relatedInformation: true });
  const sites = editSites(base);
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      edit: (i) => {
        const next = applyEdit(doc.text, editAt(sites, i));
        return timedSync(() => {
          doc.text = next;
          doc.version++;
          ours.toDiagnostics(workspace.getAnalysis(uri), { uri, relatedInformation: true });
        });
      },
    },
    floor: () => timedSync(() => floor.run(doc.text)),
  });
  out.push(summarize("text → diagnostics, one-character edit", "ours", a.format, a.steps, results.edit, floor.name, floorSamples));
}

{
  const site = completionSite(base, a.format);
  const last = ours.analyzeText(site.text, a.format);
  const typed = site.text.slice(0, site.offset) + "." + site.text.slice(site.offset);
  const position = positionAt(typed, site.offset + 1);
  let items = 0;
  const { results, floorSamples } = await interleave({
    warmup: a.warmup,
    iterations: a.iterations,
    subjects: {
      // as the server answers: the open document with the `.` just typed (not built yet), and the last
      // analysis; JSON from the step around the cursor where that suffices, else from the whole text
      completion: () => {
        const doc = new ours.LazyTextDocument("file:///bench.lwir." + a.format, a.format, 1, site.text);
        const at = positionAt(site.text, site.offset);
        doc.update([{ range: { start: at, end: at }, text: "." }], 2);
        return timedSync(() => {
          const list = ours.provideCompletionNearCursor(doc, last, position) ?? ours.provideCompletionFromText(doc.getText(), a.format, last, position);
          items = list.items.length;
        });
      },
    },
    floor: () => timedSync(() => floor.run(typed)),
  });
  out.push(summarize("completion after `{{ steps.`, from text + last analysis", "ours", a.format, a.steps, results.completion, floor.name, floorSamples, { items }));
}
emit(out);
