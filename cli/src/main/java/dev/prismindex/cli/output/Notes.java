package dev.prismindex.cli.output;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.tool.SafeText;
import java.util.Map;
import java.util.TreeMap;

/**
 * The words of the notes every surface gives (the human and JSON printers, the MCP tools): files
 * not searched, an answer from the last commit while a run writes, a repaired index.
 */
public final class Notes {

  private Notes() {}

  /** The note of an answer served from the last commit while an indexing run writes the index. */
  public static String lockedNote(Freshness f) {
    return f.changedFiles() + " changed files not re-indexed ("
        + (f.indexReadOnly() ? "the index is read-only" : "an indexing run is writing the index")
        + "); answering from the last index run";
  }

  /** The line on stderr of an {@code index} run that repaired a damaged index. */
  public static String repairedNote(IndexSummary s) {
    return SafeText.escapeField("prism-index index: the index at " + s.indexDir()
        + " was damaged (" + s.repaired() + "); rebuilt it from the files");
  }

  /**
   * The one line saying which files a literal search did not search: {@code not searched: 3 files
   * left out of the index (binary 1, secret 2); see docs/cli.md}.
   */
  public static String notSearchedNote(Map<String, Integer> notSearched) {
    return notSearchedNote(notSearched, true);
  }

  /**
   * The same line for files an index left out ({@code fromIndex}), or for files a search found it
   * could not read as text, as a search without an index does: {@code not searched: 1 file
   * (binary 1); see docs/cli.md}.
   */
  public static String notSearchedNote(Map<String, Integer> notSearched, boolean fromIndex) {
    int total = notSearched.values().stream().mapToInt(Integer::intValue).sum();
    return "not searched: " + count(total, "file") + (fromIndex ? " left out of the index" : "")
        + " (" + byReason(notSearched) + "); see docs/cli.md";
  }

  /** Counts by reason, in reason order: {@code binary 1, oversize 2}. */
  static String byReason(Map<String, Integer> counts) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Integer> e : new TreeMap<>(counts).entrySet()) {
      b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
    }
    return b.toString();
  }

  /** {@code n} and {@code noun}, plural unless {@code n} is 1: {@code 1 file}, {@code 3 files}. */
  static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
