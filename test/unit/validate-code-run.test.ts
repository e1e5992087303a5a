// code.run (catalog 3.8, 4 code.run, 1.2 file-name quoting, 3.6 for file contents).
import { describe, test } from "node:test";
import { createHash } from "node:crypto";
import {
  type Json, MAIN_TS, UTIL_TS, codeFiles, codeRunStep, expectFindings, expectValid, parallelStep, sha256Of, withSteps,
} from "./lwir-fixtures";

/** A workflow whose only step is a code.run step with `with` replaced/patched. */
function doc(patch: (w: Json) => void): Json {
  const step = codeRunStep("run");
  patch(step.with);
  return withSteps([step]);
}
function docWith(w: unknown): Json {
  const step = codeRunStep("run");
  if (w === undefined) delete step.with; else step.with = w;
  return withSteps([step]);
}
const W = "$.steps[0].with";
const file = (name: string, suffix = "") => `${W}.files[${JSON.stringify(name)}]${suffix}`;

describe("valid code.run steps", () => {
  test("the fixture step is valid", () => {
    expectValid(doc(() => undefined));
  });

  test("entrypoint in a sub-directory, a non-.ts data file, odd but safe names", () => {
    expectValid(doc((w) => { w.entrypoint = "lib/util.ts"; }));
    expectValid(doc((w) => { w.files = codeFiles({ "main.ts": MAIN_TS, "data/config.json": "{\"a\": 1}", "README": "x" }); }));
    expectValid(doc((w) => { w.files = codeFiles({ "a b.ts": MAIN_TS }); w.entrypoint = "a b.ts"; }));
    expectValid(doc((w) => { w.files = codeFiles({ "C:/x.ts": MAIN_TS }); w.entrypoint = "C:/x.ts"; }));
    expectValid(doc((w) => { w.files = codeFiles({ "main.ts": MAIN_TS, "..hidden/.env.ts": UTIL_TS, "a..b.ts": UTIL_TS }); }));
  });

  test("digests are over UTF-8 bytes; empty content is fine", () => {
    expectValid(doc((w) => { w.files = codeFiles({ "main.ts": "export const s = \"héllo wörld 😀 \\u2028\";\n" }); }));
    expectValid(doc((w) => { w.files = codeFiles({ "main.ts": "" }); }));
  });

  test("sandbox variants: deny or false, env and fs optional, unknown keys ignored", () => {
    for (const sandbox of [
      { network: "deny" },
      { network: false },
      { network: false, env: false, fs: false },
      { network: "deny", env: "deny", fs: "deny" },
      { network: "deny", cpu: "unlimited" },
    ]) {
      expectValid(doc((w) => { w.sandbox = sandbox; }), JSON.stringify(sandbox));
    }
  });

  test("unknown `with` keys are ignored but still template-checked", () => {
    expectValid(doc((w) => { w.timeoutMs = 5000; w.args = { q: "{{ input.topic }}" }; }));
    expectFindings(doc((w) => { w.args = { q: "{{ input.topic" }; }), [`${W}.args.q expression.invalid`]);
  });
});

describe("code.invalid_config (with not an object: nothing else)", () => {
  for (const [name, w] of [["missing", undefined], ["null", null], ["string", "main.ts"], ["array", [{ entrypoint: "main.ts" }]], ["number", 1], ["false", false]] as Array<[string, unknown]>) {
    test(name, () => {
      expectFindings(docWith(w), [`${W} code.invalid_config`]);
    });
  }
});

describe("code.missing_entrypoint and code.invalid_entrypoint", () => {
  test("entrypoint missing or not a string: missing only", () => {
    for (const v of [undefined, null, 5, ["main.ts"], { path: "main.ts" }]) {
      expectFindings(doc((w) => { if (v === undefined) delete w.entrypoint; else w.entrypoint = v; }), [`${W}.entrypoint code.missing_entrypoint`], JSON.stringify(v));
    }
  });

  test("an empty-string entrypoint with non-empty files is both missing and invalid (cumulative)", () => {
    expectFindings(doc((w) => { w.entrypoint = ""; }), [`${W}.entrypoint code.missing_entrypoint`, `${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("an empty-string entrypoint with no files is missing only", () => {
    expectFindings(doc((w) => { w.entrypoint = ""; w.files = {}; }), [`${W}.entrypoint code.missing_entrypoint`, `${W}.files code.missing_files`]);
  });

  test("(a) not ending in .ts, and (b) not one of the files: two findings at the same path", () => {
    expectFindings(doc((w) => { w.entrypoint = "main.js"; }), [`${W}.entrypoint code.invalid_entrypoint`, `${W}.entrypoint code.invalid_entrypoint`]);
    expectFindings(doc((w) => { w.entrypoint = "main.TS"; }), [`${W}.entrypoint code.invalid_entrypoint`, `${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("(a) alone when the bad entrypoint is one of the files", () => {
    expectFindings(doc((w) => { w.files = codeFiles({ "main.js": MAIN_TS }); w.entrypoint = "main.js"; }), [`${W}.entrypoint code.invalid_entrypoint`]);
    expectFindings(doc((w) => { w.files = codeFiles({ "MAIN.TS": MAIN_TS }); w.entrypoint = "MAIN.TS"; }), [`${W}.entrypoint code.invalid_entrypoint`]);
    expectFindings(doc((w) => { w.files = codeFiles({ "main.ts.bak": MAIN_TS }); w.entrypoint = "main.ts.bak"; }), [`${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("(b) alone: a safe .ts entrypoint that is not a key of files", () => {
    expectFindings(doc((w) => { w.entrypoint = "other.ts"; }), [`${W}.entrypoint code.invalid_entrypoint`]);
    expectFindings(doc((w) => { w.entrypoint = "util.ts"; }), [`${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("unsafe entrypoint paths that are also file names: (a) plus the file-path finding", () => {
    for (const name of ["./main.ts", "src//main.ts", "../x.ts", "/srv/x.ts", "src\\main.ts", "a/./b.ts", "a/../b.ts", "nul\u0000.ts"]) {
      expectFindings(doc((w) => { w.files = codeFiles({ [name]: MAIN_TS }); w.entrypoint = name; }), [
        `${W}.entrypoint code.invalid_entrypoint`,
        `${file(name)} code.invalid_file_path`,
      ], JSON.stringify(name));
    }
  });

  test("unsafe entrypoint paths that are not file names: (a) and (b)", () => {
    for (const name of ["./main.ts", "/main.ts", "lib/", "lib\\util.ts"]) {
      expectFindings(doc((w) => { w.entrypoint = name; }), [`${W}.entrypoint code.invalid_entrypoint`, `${W}.entrypoint code.invalid_entrypoint`], JSON.stringify(name));
    }
  });

  test("the `in` quirk: inherited names count as present, so only (a) fires", () => {
    for (const name of ["toString", "constructor", "hasOwnProperty", "valueOf", "__proto__"]) {
      expectFindings(doc((w) => { w.entrypoint = name; }), [`${W}.entrypoint code.invalid_entrypoint`], name);
    }
    // A name that is not inherited gets both.
    expectFindings(doc((w) => { w.entrypoint = "notInherited"; }), [`${W}.entrypoint code.invalid_entrypoint`, `${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("the `in` quirk holds for null-prototype input too (rules run on the parsed-back copy)", () => {
    // Catalog 2 stage 1: later stages see the copy parsed back from canonical JSON, whose objects
    // inherit from Object.prototype whatever the caller passed in.
    const d = doc((w) => {
      const files = Object.create(null);
      Object.assign(files, codeFiles({ "main.ts": MAIN_TS }));
      w.files = files;
      w.entrypoint = "toString";
    });
    expectFindings(d, [`${W}.entrypoint code.invalid_entrypoint`]);
  });

  test("(b) is not checked when files is empty or not an object", () => {
    expectFindings(doc((w) => { w.entrypoint = "other.ts"; w.files = {}; }), [`${W}.files code.missing_files`]);
    expectFindings(doc((w) => { w.entrypoint = "other.ts"; w.files = ["other.ts"]; }), [`${W}.files code.missing_files`]);
  });
});

describe("code.missing_files, code.invalid_file_path, code.invalid_file, code.invalid_file_hash", () => {
  test("files not an object or without keys", () => {
    for (const v of [undefined, null, {}, [], [{ "main.ts": {} }], "main.ts", 3]) {
      expectFindings(doc((w) => { if (v === undefined) delete w.files; else w.files = v; }), [`${W}.files code.missing_files`], JSON.stringify(v));
    }
  });

  test("unsafe file names, quoted as JSON strings in the path", () => {
    for (const name of ["../x.ts", "/abs.ts", "a\\b.ts", "./a.ts", "a//b.ts", "dir/", ".", "..", "x/.."]) {
      expectFindings(doc((w) => { Object.assign(w.files, codeFiles({ [name]: UTIL_TS })); }), [`${file(name)} code.invalid_file_path`], JSON.stringify(name));
    }
  });

  test("an empty file name is unsafe", () => {
    expectFindings(doc((w) => { Object.assign(w.files, codeFiles({ "": UTIL_TS })); }), [`${W}.files[""] code.invalid_file_path`]);
  });

  test("the quoted segment escapes quotes and backslashes", () => {
    expectFindings(doc((w) => { w.files['we"ird.json'] = { content: "{}", sha256: sha256Of("{} ") }; }), [`${W}.files["we\\"ird.json"].sha256 code.invalid_file_hash`]);
    expectFindings(doc((w) => { w.files["back\\slash.ts"] = { content: "x", sha256: sha256Of("x") }; }), [`${W}.files["back\\\\slash.ts"] code.invalid_file_path`]);
  });

  test("a file entry that is not an object: one finding at the file, nothing else for it", () => {
    for (const v of ["export {}", null, [], 1, true]) {
      expectFindings(doc((w) => { w.files["lib/util.ts"] = v; }), [`${file("lib/util.ts")} code.invalid_file`], JSON.stringify(v));
    }
  });

  test("an unsafe name whose entry is not an object gets both findings at the same path", () => {
    expectFindings(doc((w) => { w.files["../up.ts"] = "x"; }), [`${file("../up.ts")} code.invalid_file_path`, `${file("../up.ts")} code.invalid_file`]);
  });

  test("content not a string: invalid_file at .content; a well-formed digest is then not compared", () => {
    for (const v of [undefined, null, 5, ["line 1", "line 2"], { text: "x" }]) {
      expectFindings(doc((w) => {
        const f = w.files["lib/util.ts"];
        if (v === undefined) delete f.content; else f.content = v;
      }), [`${file("lib/util.ts", ".content")} code.invalid_file`], JSON.stringify(v));
    }
  });

  test("content and digest both missing", () => {
    expectFindings(doc((w) => { w.files["lib/util.ts"] = {}; }), [
      `${file("lib/util.ts", ".content")} code.invalid_file`,
      `${file("lib/util.ts", ".sha256")} code.invalid_file_hash`,
    ]);
  });

  test("malformed digests", () => {
    const hex = sha256Of(UTIL_TS).slice(7);
    for (const v of [undefined, null, 5, hex, `SHA256:${hex}`, `sha256:${hex.toUpperCase()}`, `sha256:${hex.slice(0, 63)}`, `sha256:${hex}0`, `sha256: ${hex}`, `sha256:${hex}\n`, `sha512:${hex}`, `sha256:${hex.slice(0, 63)}g`]) {
      expectFindings(doc((w) => {
        const f = w.files["lib/util.ts"];
        if (v === undefined) delete f.sha256; else f.sha256 = v;
      }), [`${file("lib/util.ts", ".sha256")} code.invalid_file_hash`], JSON.stringify(v));
    }
  });

  test("well-formed digests that do not match the content", () => {
    const cases: Array<[string, string]> = [
      ["digest of the other file", sha256Of(MAIN_TS)],
      ["digest of the content with CRLF", sha256Of(UTIL_TS.replace(/\n/g, "\r\n"))],
      ["digest without the trailing newline", sha256Of(UTIL_TS.trimEnd())],
      ["digest of Latin-1 bytes", "sha256:" + createHash("sha256").update(Buffer.from("héllo", "latin1")).digest("hex")],
      ["all zeros", "sha256:" + "0".repeat(64)],
    ];
    for (const [name, digest] of cases) {
      expectFindings(doc((w) => {
        if (name.includes("Latin-1")) w.files["lib/util.ts"].content = "héllo";
        w.files["lib/util.ts"].sha256 = digest;
      }), [`${file("lib/util.ts", ".sha256")} code.invalid_file_hash`], name);
    }
  });

  test("every file is checked: findings on several files", () => {
    expectFindings(doc((w) => {
      w.files["lib/util.ts"].sha256 = sha256Of("nope");
      w.files["../evil.ts"] = { content: 1, sha256: "bad" };
      w.files["notes.md"] = "plain";
    }), [
      `${file("lib/util.ts", ".sha256")} code.invalid_file_hash`,
      `${file("../evil.ts")} code.invalid_file_path`,
      `${file("../evil.ts", ".content")} code.invalid_file`,
      `${file("../evil.ts", ".sha256")} code.invalid_file_hash`,
      `${file("notes.md")} code.invalid_file`,
    ]);
  });

  test("file contents are ordinary with strings: template checks use unquoted paths", () => {
    const src = "export const o = { a: { b: 1 }};\n";
    expectFindings(doc((w) => { w.files = codeFiles({ "main.ts": src }); }), [`${W}.files.main.ts.content expression.invalid`]);
    const tpl = "const t = `{{ not template }}`;\n";
    expectFindings(doc((w) => { w.files = codeFiles({ "main.ts": tpl }); }), [`${W}.files.main.ts.content expression.invalid`]);
    // A legitimate template in a file is accepted.
    expectValid(doc((w) => { w.files = codeFiles({ "main.ts": "// {{ input.topic }}\n" }); }));
  });
});

describe("code.missing_sandbox and code.invalid_sandbox", () => {
  test("no sandbox key", () => {
    expectFindings(doc((w) => { delete w.sandbox; }), [`${W}.sandbox code.missing_sandbox`]);
  });

  test("sandbox present but not an object (null included): nothing else checked", () => {
    for (const v of [null, "deny", false, [], [{ network: "deny" }], 0]) {
      expectFindings(doc((w) => { w.sandbox = v; }), [`${W}.sandbox code.invalid_sandbox`], JSON.stringify(v));
    }
  });

  test("network must be \"deny\" or false, and must be stated", () => {
    for (const v of [undefined, true, "allow", "DENY", null, 0, "false"]) {
      expectFindings(doc((w) => { if (v === undefined) delete w.sandbox.network; else w.sandbox.network = v; }), [`${W}.sandbox.network code.invalid_sandbox`], JSON.stringify(v));
    }
    expectFindings(doc((w) => { w.sandbox = {}; }), [`${W}.sandbox.network code.invalid_sandbox`]);
  });

  test("env and fs, when present, must be \"deny\" or false (null fires)", () => {
    for (const name of ["env", "fs"]) {
      for (const v of [null, true, "allow", "read-only", {}, 0]) {
        expectFindings(doc((w) => { w.sandbox[name] = v; }), [`${W}.sandbox.${name} code.invalid_sandbox`], `${name} ${JSON.stringify(v)}`);
      }
    }
  });

  test("all three wrong at once", () => {
    expectFindings(doc((w) => { w.sandbox = { network: "allow", env: "inherit", fs: "rw" }; }), [
      `${W}.sandbox.network code.invalid_sandbox`,
      `${W}.sandbox.env code.invalid_sandbox`,
      `${W}.sandbox.fs code.invalid_sandbox`,
    ]);
  });
});

describe("code.run findings accumulate", () => {
  test("an empty with object", () => {
    expectFindings(docWith({}), [`${W}.entrypoint code.missing_entrypoint`, `${W}.files code.missing_files`, `${W}.sandbox code.missing_sandbox`]);
  });

  test("in a parallel body the paths start at the body step", () => {
    const step = codeRunStep("inner");
    step.with.entrypoint = "other.ts";
    step.with.files["lib/util.ts"].sha256 = sha256Of("");
    step.input = { item: "{{ item }}" };
    expectFindings(withSteps([parallelStep("fan", [step])]), [
      "$.steps[0].steps[0].with.entrypoint code.invalid_entrypoint",
      "$.steps[0].steps[0].with.files[\"lib/util.ts\"].sha256 code.invalid_file_hash",
    ]);
  });
});
