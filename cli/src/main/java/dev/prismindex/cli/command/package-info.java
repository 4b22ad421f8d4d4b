/**
 * Commands: the raw flags ({@code Flags}, picocli), the validated requests ({@code Requests},
 * {@link dev.prismindex.cli.command.SearchRequest}) and the backends that run them.
 *
 * <p>A search is validated once for every surface: the command line, the resident server (which
 * runs the same command line) and the MCP tool {@code repo_search} each put their raw arguments in
 * a {@link dev.prismindex.cli.command.RawSearchArgs}, and
 * {@link dev.prismindex.cli.command.SearchRequests#validate} turns them into a
 * {@code SearchRequest} or a usage error ({@link dev.prismindex.cli.command.CliFailure}, exit code
 * 2); {@link dev.prismindex.cli.command.SearchSurface} says only how the surface spells its
 * arguments and which modes it offers; {@link dev.prismindex.cli.command.SearchConfig} holds the
 * command line's defaults (environment variables, {@code .prism-index.toml}, the user's file).
 * {@link dev.prismindex.cli.command.Target} resolves the
 * repository and the index directory, and stays light: the resident server's client uses it
 * before any engine class loads.
 *
 * <p>{@link dev.prismindex.cli.command.Backend} runs a request: {@code LocalBackend} on the
 * engine's {@code HybridIndex} (the one place that talks to the engine and turns its exceptions
 * into exit codes 3 and 4), reached through an {@code IndexAccess} (opened per call, or kept open
 * by the resident server's {@code WarmBackend}). Results are the records of
 * {@link dev.prismindex.cli.output.Results}.
 */
@NullMarked
package dev.prismindex.cli.command;

import org.jspecify.annotations.NullMarked;
