// Series 1, the parse floors: JSON.parse and jsonc parseTree (JSON); yaml parseDocument + LineCounter and
// the yaml Lexer alone (YAML). Each extra floor is measured interleaved with the main floor of its format.
import { EXTRA_FLOORS, FLOOR, args, emit, interleave, readWorkload, summarize, timedSync, variant } from "../lib.mjs";

const a = args();
const base = readWorkload(a.file);
const main = FLOOR[a.format];
const extra = EXTRA_FLOORS[a.format];
let text = base;
const { results, floorSamples } = await interleave({
  warmup: a.warmup,
  iterations: a.iterations,
  subjects: {
    main: (i) => {
      text = variant(base, i);
      return timedSync(() => main.run(text));
    },
    extra: () => timedSync(() => extra.run(text)),
  },
  floor: () => timedSync(() => main.run(text)),
});
emit([
  summarize(main.name, "floor", a.format, a.steps, results.main, main.name, floorSamples),
  summarize(extra.name, "floor", a.format, a.steps, results.extra, main.name, floorSamples),
]);
