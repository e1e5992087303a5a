// Layouts in a worker thread (Node only): dist/graph-layout-worker.js (graphLayoutWorker.ts), started on
// the first layout. The worker lays out one graph at a time in the order asked; service/graph.ts keeps at
// most one layout per document in flight. If the worker cannot start, dies or fails, the layouts waiting
// for it and every later one are computed in-thread (logged once): slower, never lost. The worker is
// unref'd while it has nothing to do, so an idle worker never keeps the server's process alive at exit.
import { Worker } from "node:worker_threads";
import { layoutGraph, type GraphLayout } from "./layout";
import type { Layouter } from "./layouter";
import type { WorkflowGraph } from "./model";

/** What the worker answers for request `id`. */
export type LayoutReply = { id: number; layout: GraphLayout } | { id: number; error: string };

interface Job {
  graph: WorkflowGraph;
  resolve: (layout: GraphLayout) => void;
  reject: (error: unknown) => void;
}

export class WorkerLayouter implements Layouter {
  private worker: Worker | undefined;
  private failed = false;
  private disposed = false;
  private nextId = 1;
  private readonly jobs = new Map<number, Job>();

  constructor(private readonly file: string, private readonly log: (message: string) => void = () => {}) {}

  /** True once the worker failed and layouts are computed in-thread. */
  get inThread(): boolean {
    return this.failed || this.disposed;
  }

  layout(graph: WorkflowGraph): Promise<GraphLayout> {
    if (this.inThread) return Promise.resolve().then(() => layoutGraph(graph));
    return new Promise<GraphLayout>((resolve, reject) => {
      const worker = this.start();
      if (!worker) {
        resolve(layoutGraph(graph));
        return;
      }
      const id = this.nextId++;
      this.jobs.set(id, { graph, resolve, reject });
      worker.ref();
      try {
        worker.postMessage({ id, graph });
      } catch (error) {
        // a graph the structured clone refuses: this one in-thread, the worker stays
        this.jobs.delete(id);
        if (this.jobs.size === 0) worker.unref();
        this.inThreadJob({ graph, resolve, reject });
        this.log(`graph layout worker: could not send a graph (${String(error)}); laid out in-thread`);
      }
    });
  }

  /** Stops the worker (shutdown, exit): layouts still waiting fail rather than hold up the exit in-thread. */
  dispose(): void {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    const waiting = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of waiting) job.reject(new Error("graph layout stopped: the server is shutting down"));
    void worker?.terminate();
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const worker = new Worker(this.file);
      worker.unref();
      worker.on("message", (reply: LayoutReply) => this.reply(reply));
      worker.on("error", (error) => this.fail(`failed: ${error instanceof Error ? error.message : String(error)}`));
      worker.on("exit", (code) => { if (this.worker === worker) this.fail(`exited (code ${code})`); });
      this.worker = worker;
      return worker;
    } catch (error) {
      this.fail(`could not start: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private reply(reply: LayoutReply): void {
    const job = this.jobs.get(reply.id);
    if (!job) return;
    this.jobs.delete(reply.id);
    if (this.jobs.size === 0) this.worker?.unref();
    if ("layout" in reply) job.resolve(reply.layout);
    else this.inThreadJob(job); // layoutGraph threw there: in-thread it throws again, and the request says why
  }

  /** The worker is gone: log once, and lay out what was waiting for it here. */
  private fail(why: string): void {
    if (this.failed || this.disposed) return;
    this.failed = true;
    this.log(`graph layout worker ${why}; graph layouts are computed in the server's thread from now on`);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.drain();
  }

  private drain(): void {
    const waiting = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of waiting) this.inThreadJob(job);
  }

  private inThreadJob(job: Job): void {
    try {
      job.resolve(layoutGraph(job.graph));
    } catch (error) {
      job.reject(error);
    }
  }
}
