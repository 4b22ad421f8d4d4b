package dev.prismindex.cli.output;

import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;

/**
 * Renders results in one output format: {@link HumanPrinter} (text, colour on a terminal) or
 * {@link JsonPrinter} (NDJSON hits, one JSON object for a summary or a status). Printers write
 * results to stdout only; notes for people go to stderr and only in human mode.
 *
 * <p>Every method throws {@link OutputClosedException} as soon as stdout reports an error (its
 * reader went away), so a command stops quietly instead of computing output nobody reads.
 */
public interface Printer {

  /** Prints the hits of a search (and, in human mode, a header and notes). */
  void search(SearchAnswer result);

  /** Prints an exact search's hits as they are found, for the search {@code query}. */
  ExactPrinter exact(String query);

  /** Prints the summary of an indexing run. */
  void index(IndexSummary summary);

  /** Prints the status of the index. */
  void status(StatusReport report);
}
