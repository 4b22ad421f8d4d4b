package dev.prismindex.cli.command;

import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.ExactScan;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.TruncationReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An exact search (literal, regex) of a repository that has no index yet: core's scanner over the
 * files git lists, bounded, in path order, with notes saying that an index would be faster and
 * which bound, if any, stopped the scan.
 */
final class IndexlessScan {
  private IndexlessScan() {}

  /** An exact search without an index: core's scanner, bounded, in path order. */
  static SearchAnswer search(SearchRequest request, SearchMode mode, ExactPrinter out) {
    Target target = request.target();
    out.begin(mode.wireName(), Freshness.NOT_CHECKED, Map.of(), Map.of());
    long started = System.nanoTime();
    ExactScan.Result r = ExactScan.stream(target.root(), request.query(), request.opts(mode),
        out::hit);
    List<String> notes = new ArrayList<>();
    notes.add("no index at " + target.home() + ": searched the files directly (an index makes"
        + " this faster: run `prism-index index`)");
    if (r.stoppedBy() != null) {
      notes.add("the scan stopped early, at its bound on " + bound(r.stoppedBy()) + " ("
          + r.scannedFiles() + " files read); `prism-index index` searches every file");
    }
    return new SearchAnswer(request.query(), false, null, r.result(), Freshness.NOT_CHECKED,
        (System.nanoTime() - started) / 1_000_000, notes);
  }

  /** The scanner's bound that stopped a search, in words. */
  static String bound(TruncationReason reason) {
    return switch (reason) {
      case FILES -> ExactScan.LIMITS.maxFiles() + " files";
      case ENTRIES -> "entries listed";
      case DEPTH -> ExactScan.LIMITS.maxDepth() + " directories deep";
      case SCAN -> "bytes read (" + ExactScan.LIMITS.maxScanBytes() / (1024 * 1024) + " MiB)";
      case TIME -> "time (" + ExactScan.LIMITS.maxTimeMs() / 1000 + " s)";
      default -> reason.wireName();
    };
  }
}
