/**
 * The {@code prism-index} command line, a thin layer over the engine.
 *
 * <p>Entry point: {@link dev.prismindex.cli.Main}. A command flows through five steps:
 * {@code Flags} (raw picocli flags) -> {@code Requests} (validated requests; every usage error,
 * exit code 2, is found here) -> {@code Backend} ({@code LocalBackend} runs the request on a
 * {@code HybridIndex} in this process and turns engine exceptions into {@code CliFailure}s with
 * exit codes 3 and 4; {@code WarmBackend} runs the same logic on indexes kept open across calls) -> {@code Printer} ({@code HumanPrinter} or {@code JsonPrinter}) -> the
 * exit code, mapped in {@code Cli}. The reference for users is docs/cli.md.
 *
 * <p>The resident server ({@code prism-index serve}, docs/agents.md): {@code ServeClient} runs
 * first in {@code Main} and hands a {@code search} or {@code status} command line to a running
 * {@code ResidentServer} over the Unix domain socket described by {@code ServeProtocol}; the server
 * runs the same {@code Cli} pipeline on a {@code WarmBackend} and streams back the output and the
 * exit code. Without a server the command runs here.
 *
 * <p>{@code prism-index mcp} ({@code McpCommand}) serves the same requests to agent hosts over the
 * Model Context Protocol on stdio: {@code McpTools} validates each tool call's arguments into a
 * request, runs it on a {@code WarmBackend} and answers the {@code JsonPrinter} objects as structured
 * content, with the hits rendered for the model by core's {@code IndexHitText} (docs/agents.md).
 */
@NullMarked
package dev.prismindex.cli;

import org.jspecify.annotations.NullMarked;
