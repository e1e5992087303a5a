// Explore: dry runs along every combination of decision outcomes, depth first, up to a limit of paths.
// Each decision is forced to each of its targets in turn (its cases are not evaluated: which data would
// make a case true is not searched for), with the same input and samples otherwise. Reports the paths that
// end in a run-time error (loops that run out of maxVisits among them) and the steps no path reaches.
import { simulate, type RunError, type SimulateOptions } from "./simulate";

/** Paths explored at most. */
export const MAX_EXPLORED_PATHS = 1000;

export interface ExploredPath {
  choices: Array<{ decision: string; value: string }>;
  status: "completed" | "failed";
  steps: number;
  error?: RunError;
}

export interface Exploration {
  limit: number;
  /** True when more paths remained than the limit allows. */
  truncated: boolean;
  paths: ExploredPath[];
  /** The failing paths' indexes into `paths`. */
  failing: number[];
  /** Step ids (body steps as `parallel.id`) that no explored path ran. */
  unreached: string[];
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function stepIds(list: unknown, prefix: string, out: string[]): void {
  if (!Array.isArray(list)) return;
  for (const s of list) {
    if (!isObject(s) || typeof s.id !== "string") continue;
    out.push(prefix + s.id);
    if (s.uses === "parallel") stepIds(s.steps, `${prefix}${s.id}.`, out);
  }
}

/** The id path of a step path: `triage[t1].draft.visit[2]` → `triage.draft`. */
function idPath(path: string): string {
  return path.replace(/\.visit\[\d+\]/g, "").replace(/\[[^\]]*\]/g, "");
}

export function explore(workflow: unknown, options: Omit<SimulateOptions, "choose">, limit = MAX_EXPLORED_PATHS): Exploration {
  const paths: ExploredPath[] = [];
  const reached = new Set<string>();
  // Each pending entry is a prefix of forced choices (indexes into each decision's targets, in run order).
  const pending: number[][] = [[]];
  let truncated = false;
  while (pending.length > 0) {
    if (paths.length >= limit) {
      truncated = true;
      break;
    }
    const prefix = pending.pop()!;
    const taken: Array<{ decision: string; targets: string[]; index: number }> = [];
    const trace = simulate(workflow, {
      ...options,
      choose: (path, targets) => {
        if (targets.length === 0) return undefined;
        const k = taken.length;
        const index = k < prefix.length ? prefix[k] : 0;
        taken.push({ decision: path, targets, index });
        return targets[index];
      },
    });
    for (const s of trace.steps) if (!s.error) reached.add(idPath(s.path));
    paths.push({
      choices: taken.map((t) => ({ decision: t.decision, value: t.targets[t.index] })),
      status: trace.status, steps: trace.steps.length, ...(trace.error ? { error: trace.error } : {}),
    });
    // The alternatives of every decision first met on this path, last first so the walk stays depth-first in order.
    for (let k = taken.length - 1; k >= prefix.length; k--) {
      for (let j = taken[k].targets.length - 1; j >= 1; j--) pending.push([...taken.slice(0, k).map((t) => t.index), j]);
    }
  }
  const all: string[] = [];
  stepIds(isObject(workflow) ? workflow.steps : undefined, "", all);
  return {
    limit, truncated, paths,
    failing: paths.flatMap((p, i) => (p.status === "failed" ? [i] : [])),
    unreached: all.filter((id) => !reached.has(id)),
  };
}
