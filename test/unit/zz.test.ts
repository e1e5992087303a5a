import { test } from "node:test";
import { readFileSync } from "node:fs";
import { analyzeText } from "../../server/src/service/analysis";
import { graphOfAnalysis } from "../../server/src/service/graph";
import { layoutGraph } from "../../server/src/graph/layout";
import { drawGraph } from "../../webview/graph/view";
test("t", () => {
  const g = graphOfAnalysis(analyzeText(readFileSync("/tmp/edited.lwir.yaml", "utf8"), "yaml"))!;
  const l = layoutGraph(g);
  console.log(JSON.stringify(l.edges.map((e: any) => [e.from, e.to, (e.points ?? []).length])));
  console.log(Object.keys(l.edges[0] ?? {}));
});
