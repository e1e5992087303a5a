// What the in-process benchmark workers call, bundled by bench/run.mjs (esbuild) into bench/tmp/ours.cjs.
export { analyzeText } from "../server/src/service/analysis";
export { toDiagnostics } from "../server/src/service/diagnostics";
export { provideCompletion, provideCompletionFromText, provideCompletionNearCursor } from "../server/src/service/completion";
export { LazyTextDocument } from "../server/src/lazyTextDocument";
export { LwirWorkspace } from "../server/src/service/workspace";
export { buildGraph, graphShapeKey } from "../server/src/graph/model";
export { layoutGraph, nodeSize, labelSize } from "../server/src/graph/layout";
export { simulate } from "../server/src/run/simulate";
export { explore } from "../server/src/run/explore";
export { generatedInput } from "../server/src/run/scenarios";
export { graphEdit } from "../server/src/service/graphEdits";
export { applyEdits } from "../server/src/service/edits";
