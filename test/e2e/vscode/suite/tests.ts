// Every test module, imported explicitly (a bundle has no test file discovery). The entries import this
// after setting mocha up.
import "./hooks";
import "./diagnostics.test";
import "./edit.test";
import "./quickfix.test";
import "./completion.test";
import "./navigation.test";
import "./commands.test";
import "./graph.test";
import "./workspace.test";
import "./trust.test";
