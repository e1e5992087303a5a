// The deep equality Ajv's generated `uniqueItems` code calls (fast-deep-equal, through Ajv's runtime
// module), counting the comparisons of two objects or arrays. Only those can depend on the key order of
// the value (fast-deep-equal walks keys last to first, and throws on a data key named valueOf or
// toString), so the schema check may trust a verdict reached on the value in source order when the
// count did not move, and otherwise repeats it on the canonical copy the runtime sees.
import ajvRuntimeEqual from "ajv/dist/runtime/equal";

const ajvEqual = ajvRuntimeEqual as unknown as (a: unknown, b: unknown) => boolean;

export let containerComparisons = 0;

const equal = (a: unknown, b: unknown): boolean => {
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) containerComparisons++;
  return ajvEqual(a, b);
};
export default equal;
