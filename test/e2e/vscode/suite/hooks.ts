// Root hooks, for every test: the extension is active and its diagnostics are watched before the first
// test; after each test, changed documents are reverted and all editors closed (each closed example then
// shows its file on disk, as the workspace scan reports it), so tests do not depend on each other's order.
import * as vscode from "vscode";
import { EXTENSION_ID, resetEditors, watchLwirCollection } from "./util";

suiteSetup(async () => {
  watchLwirCollection();
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded (is the extension development path right?)`);
  await extension.activate();
});

teardown(resetEditors);
