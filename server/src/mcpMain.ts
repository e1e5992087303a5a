// `lwir mcp`'s own bundle (bundle/lwir-mcp.js, dist/lwir-mcp.js beside the CLI's): the protocol's SDK, zod and
// the tools' schemas are a large share of the CLI's code, and the CLI loads this file only for `lwir mcp`, so
// every other command starts without reading or compiling them (scripts/bundle.mjs, MCP_APART).
import { useNodeSha256 } from "./nodeSha256";

// A bundle of its own holds its own copy of the hashing module: give it node:crypto as the CLI does its copy.
useNodeSha256();
export { runMcpServer } from "./mcp/server";
