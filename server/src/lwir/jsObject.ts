// What JavaScript's plain objects carry before anything is written into them. The runtime looks
// user-written names up in plain objects (function names, `key in properties`), so a name inherited
// from Object.prototype is found there although no rule declares it (findings catalog 3.2, 5.5).

/** The own property names of Object.prototype (ECMAScript, plus the Annex B accessors Node has). */
export const OBJECT_PROTOTYPE_NAMES: ReadonlySet<string> = new Set([
  "constructor",
  "__proto__",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

const hasOwn = Object.prototype.hasOwnProperty;

/** JavaScript's `name in object` for a plain object parsed from JSON or YAML: own keys and inherited names. */
export function inPlainObject(name: string, object: object): boolean {
  return hasOwn.call(object, name) || OBJECT_PROTOTYPE_NAMES.has(name);
}
