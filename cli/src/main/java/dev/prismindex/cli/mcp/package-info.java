/**
 * {@code prism-index mcp}: the Model Context Protocol server on stdio (docs/agents.md).
 * {@link dev.prismindex.cli.mcp.McpCommand} starts the official SDK's server with the tools of
 * {@code McpTools} ({@code repo_search}, {@code index_status}, {@code reindex}); {@code McpStdio}
 * screens the client's lines (read by {@code BoundedLines}) so a malformed one never reaches (or
 * stops) the SDK, and
 * {@code McpParamsMapper} keeps the SDK from rejecting what the tools validate themselves.
 * {@code repo_search}'s arguments go through the CLI's one search validator
 * ({@link dev.prismindex.cli.command.SearchRequests}) and run on a warm backend; results are the
 * CLI's JSON objects as structured content plus core's {@code IndexHitText} for the model, both
 * rendered by {@code McpSearchAnswer}.
 * {@code McpProgress} turns an index run's progress into MCP progress notifications.
 */
@NullMarked
package dev.prismindex.cli.mcp;

import org.jspecify.annotations.NullMarked;
