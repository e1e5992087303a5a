// Preloaded into yaml-language-server (node --require) for the "debounce removed" series: its 200 ms
// validation delay is a hard-coded field no setting reaches, so each validate() first sets it to 0.
// The class is patched in the module the server itself loads (same resolved path, same class).
const { ValidationHandler } = require(require.resolve("yaml-language-server/out/server/src/languageserver/handlers/validationHandlers.js"));
const original = ValidationHandler.prototype.validate;
ValidationHandler.prototype.validate = function (textDocument) {
  this.yamlSettings.validationDelayMs = 0;
  return original.call(this, textDocument);
};
