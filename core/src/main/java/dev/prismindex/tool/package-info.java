/**
 * Agent tools over a workspace; today the {@code repo_search} tool.
 *
 * <p><b>Entry point.</b> {@link dev.prismindex.tool.RepoSearchTool#create(java.nio.file.Path,
 * RepoSearchToolOptions)} binds the tool to a workspace root and to {@link
 * dev.prismindex.tool.RepoSearchToolOptions} (built with {@code RepoSearchToolOptions.builder()}): the
 * {@link dev.prismindex.repository.RepositoryOperations} that answer searches (the literal scanner by
 * default, or the index seam's composite from {@link dev.prismindex.index} for the index modes
 * {@code indexed_literal}, {@code lexical}, {@code semantic} and {@code hybrid}), the repository
 * limits, the exposed modes and an optional {@link dev.prismindex.tool.ExecutionPolicy}.
 *
 * <p><b>How the pieces fit.</b> A host shows a model {@link
 * dev.prismindex.tool.RepoSearchTool#definition()} (a {@link dev.prismindex.tool.ToolDefinition}
 * whose JSON schema lists exactly the configured modes) and passes the model's JSON arguments to
 * {@link dev.prismindex.tool.RepoSearchTool#execute(com.fasterxml.jackson.databind.JsonNode,
 * ToolContext)} with a {@link dev.prismindex.tool.ToolContext} (cancellation signal and ids). The
 * tool validates the arguments in a fixed order with the reference's exact messages, asks the policy
 * (a {@link dev.prismindex.tool.PolicyRequest} answered by a {@link
 * dev.prismindex.tool.PolicyDecision}), runs the search with the configured exclude list, context,
 * match cap and time budget, and returns a {@link dev.prismindex.tool.ToolResult}: text for the
 * model, structured metadata for the host. {@code execute} does not throw for bad input or a failed
 * search; failures are error results, and an error with a stable code (an {@code IndexException} or
 * a {@code RepositoryException}) carries it as {@code errorCode} in the metadata, which the
 * reference drops.
 *
 * <p><b>Hosts that run searches their own way</b> (the MCP server over the engine) reuse the same
 * surface: {@link dev.prismindex.tool.RepoSearchTool#definition(RepoSearchToolOptions)} for the
 * definition and {@link dev.prismindex.tool.RepoSearchArguments#parse} for the validation (an
 * immutable {@link dev.prismindex.tool.RepoSearchArguments}, or an
 * {@link java.lang.IllegalArgumentException} whose message is the tool error).
 *
 * <p><b>Text that cannot lie about its shape.</b> Rendered output has one item per line: a match
 * {@code path:line:column:text} (with {@code [score 0.750]} for index results), a context line
 * {@code path-text} or {@code path+text}, a path, a count, or a {@code [truncated by ...]} footer.
 * Paths and texts are escaped before they are written: CR, LF, the other C0 and C1 controls (TAB
 * excepted), DEL, U+2028, U+2029 and the bidirectional controls become visible escapes
 * ({@code \n}, {@code \r}, {@code \}{@code u001B}), so an untrusted index snippet such as
 * {@code "ok\nsrc/evil.ts:1:1:pwned"} stays inside its own line. Backslashes are not doubled: the
 * escaping protects line structure and is not reversible; the metadata holds the exact texts. Each
 * text is cut to its first 500 UTF-16 units of the original (one fewer when the cut would split a
 * surrogate pair) followed by {@code ... [truncated]}, and escaped after the cut.
 *
 * <p>All types are immutable and thread-safe; one tool instance serves concurrent calls.
 */
@NullMarked
package dev.prismindex.tool;

import org.jspecify.annotations.NullMarked;
