/**
 * The {@code prism-index} command line, a thin layer over the engine; the reference for users is
 * docs/cli.md, the map of its packages docs/architecture.md.
 *
 * <p>Entry point: {@link dev.prismindex.cli.Main}. It first offers {@code search} and
 * {@code status} to a resident server ({@link dev.prismindex.cli.serve}); otherwise {@code Cli} runs
 * the command here in five steps: raw flags (picocli) -> a validated request
 * ({@link dev.prismindex.cli.command}; every usage error, exit code 2, is found there) -> a
 * {@code Backend} runs it -> a printer renders the result ({@link dev.prismindex.cli.output}) ->
 * the exit code. {@code serve} and {@code mcp} hand over to {@link dev.prismindex.cli.serve} and
 * {@link dev.prismindex.cli.mcp}; {@code completion} prints the script of
 * {@link dev.prismindex.cli.completion} for this very command line.
 *
 * <p>The packages depend in one direction: {@code output} on nothing else of the CLI,
 * {@code command} on {@code output}, {@code serve}, {@code mcp} and {@code completion} on those,
 * and this package, which wires them, on all.
 */
@NullMarked
package dev.prismindex.cli;

import org.jspecify.annotations.NullMarked;
