package dev.prismindex.cli.output;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.Hit;
import java.util.Map;

/**
 * Prints an exact search (literal, regex) while it runs: every hit as soon as it is found, in path
 * and line order, as grep and ripgrep print theirs ({@link Printer#exact}). Like every printer, it
 * throws {@link OutputClosedException} once stdout is no longer read, which ends the search.
 */
public interface ExactPrinter {

  /**
   * Before the first hit.
   *
   * @param mode the mode that answers
   * @param freshness what was done about changed files first (in a workspace, its repositories'
   *     figures summed)
   * @param repos in a workspace, what was done about each repository's changed files, by name;
   *     empty for one repository
   * @param notIndexed files the index leaves out, by reason (known before the search; empty
   *     without an index; in a workspace, summed over its indexes)
   */
  void begin(String mode, Freshness freshness, Map<String, Freshness> repos,
      Map<String, Integer> notIndexed);

  /** One hit. */
  void hit(Hit hit);

  /**
   * After the last hit: the answer (its hits empty) saying whether the limit cut it and
   * everything not searched.
   */
  void end(SearchAnswer answer);
}
