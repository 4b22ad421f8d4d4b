/**
 * Output: what a command answers ({@link dev.prismindex.cli.output.Results}) and how it is shown.
 * Each format is one {@link dev.prismindex.cli.output.Printer}: {@code HumanPrinter} (text,
 * escaped, coloured by {@code Style} on a terminal, matches marked by {@code Marks}, context
 * grouped by {@code HitGroups}) and {@code JsonPrinter} (NDJSON hits and JSON
 * objects, the schema of docs/cli.md, written by {@code JsonObjects}, which the MCP server
 * reuses); {@code Notes} words the notes all of them give. Progress of an index run
 * goes to a {@link dev.prismindex.cli.output.Progress}: {@code TerminalProgress} on a terminal.
 * Depends on nothing else of the CLI.
 */
@NullMarked
package dev.prismindex.cli.output;

import org.jspecify.annotations.NullMarked;
