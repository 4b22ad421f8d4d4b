package dev.prismindex.cli;

import dev.prismindex.cli.Results.Changes;
import dev.prismindex.cli.Results.CliHit;
import dev.prismindex.cli.Results.Freshness;
import dev.prismindex.cli.Results.IndexSummary;
import dev.prismindex.cli.Results.SearchResult;
import dev.prismindex.cli.Results.StatusReport;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Text for people. A search prints a header naming the mode, then one block per hit in rank order:
 * {@code path:line}, the enclosing symbol and the score on the first line, the snippet indented on
 * the second. Notes (files re-indexed first, partial semantic coverage) go to stderr.
 */
final class HumanPrinter implements Printer {

  private final PrintStream out;
  private final PrintStream err;
  private final Style style;

  HumanPrinter(PrintStream out, PrintStream err, Style style) {
    this.out = out;
    this.err = err;
    this.style = style;
  }

  @Override
  public void search(SearchResult r) {
    notes(r);
    int n = r.hits().size();
    String how = switch (r.mode()) {
      case "hybrid" -> "hybrid search (lexical + semantic)";
      case "lexical" -> r.modeReason() != null ? "lexical search (" + r.modeReason() + ")"
          : "lexical search";
      default -> r.mode() + " search";
    };
    emit(style.dim(how + ": " + n + (n == 1 ? " hit" : " hits") + " for \"" + oneLine(r.query())
        + "\" in " + r.tookMs() + " ms"));
    int rank = 0;
    for (CliHit h : r.hits()) {
      rank++;
      StringBuilder first = new StringBuilder();
      first.append(style.path(h.path())).append(':').append(style.line(Integer.toString(h.line())));
      if (h.symbol() != null) {
        first.append("  ").append(style.bold(h.symbol()));
      }
      first.append("  ").append(style.score(String.format(Locale.ROOT, "%.3f", h.score())));
      emit("");
      emit(first.toString());
      emit("    " + highlight(oneLine(h.snippet()), r.query(), h.mode()));
    }
    if (n == 0) {
      emit("no hits");
    }
  }

  /**
   * Marks the query in the snippet (colour only): the whole query in literal mode, else each query
   * word of two or more letters or digits, case-insensitively.
   */
  String highlight(String snippet, String query, String mode) {
    if (!style.on()) {
      return snippet;
    }
    List<String> needles = new ArrayList<>();
    if (mode.equals("literal")) {
      needles.add(query);
    } else {
      for (String word : query.split("[^\\p{L}\\p{N}_]+")) {
        if (word.length() >= 2) {
          needles.add(word);
        }
      }
    }
    String lower = snippet.toLowerCase(Locale.ROOT);
    boolean[] marked = new boolean[snippet.length()];
    for (String needle : needles) {
      String n = needle.toLowerCase(Locale.ROOT);
      if (n.isEmpty() || n.length() != needle.length()) {
        continue;
      }
      for (int i = lower.indexOf(n); i >= 0; i = lower.indexOf(n, i + 1)) {
        java.util.Arrays.fill(marked, i, Math.min(marked.length, i + n.length()), true);
      }
    }
    StringBuilder b = new StringBuilder(snippet.length() + 16);
    int i = 0;
    while (i < snippet.length()) {
      int j = i;
      while (j < snippet.length() && marked[j] == marked[i]) {
        j++;
      }
      String part = snippet.substring(i, j);
      b.append(marked[i] ? style.match(part) : part);
      i = j;
    }
    return b.toString();
  }

  private void notes(SearchResult r) {
    Freshness f = r.freshness();
    if (f.skippedBecauseLocked()) {
      note(f.changedFiles() + " changed files not re-indexed (an indexing run is writing the"
          + " index); answering from the last index run");
    } else if (f.refreshedFiles() > 0 || f.changedFiles() > 0) {
      note("re-indexed " + f.changedFiles() + " changed " + (f.changedFiles() == 1 ? "file" : "files")
          + " before searching");
    }
    Double coverage = r.semanticCoverage();
    if (coverage != null && coverage < 1.0) {
      note(String.format(Locale.ROOT, "semantic coverage is partial (%.0f%% of chunks embedded);"
          + " run `prism-index index` to complete it", Math.floor(coverage * 100)));
    }
  }

  @Override
  public void index(IndexSummary s) {
    emit((s.committed() ? "indexed " : "index up to date: ") + count(s.filesSeen(), "file")
        + " seen in " + seconds(s.durationMs()) + " ("
        + s.added() + " added, " + s.changed() + " changed, " + s.deleted() + " deleted, "
        + s.unchanged() + " unchanged, " + s.skippedTotal() + " skipped)");
    emit("  chunks   " + s.chunksWritten() + " written, " + s.chunksEmbedded() + " embedded, "
        + s.chunksReused() + " reused from the embedding cache");
    if (!s.skipped().isEmpty()) {
      StringBuilder b = new StringBuilder("  skipped ");
      for (Map.Entry<String, Integer> e : new TreeMap<>(s.skipped()).entrySet()) {
        b.append(' ').append(e.getKey()).append(' ').append(e.getValue());
      }
      emit(b.toString());
    }
    emit("  index    " + count(s.files(), "file") + ", " + count(s.chunks(), "chunk") + ", "
        + bytes(s.sizeOnDiskBytes()) + " at " + s.indexDir());
    emit("  semantic " + semantic(s.model(), s.semanticCoverage(), s.semanticMessage()));
    if (s.sourceRevision() != null) {
      emit("  revision " + s.sourceRevision());
    }
  }

  @Override
  public void status(StatusReport s) {
    emit(style.bold("state     ") + s.state().wireName()
        + (s.problem() == null ? "" : style.dim("  (" + s.problem() + ")")));
    emit("repo      " + s.repo());
    emit("index     " + s.indexDir());
    if (!s.state().searchable() && s.changes() == null) {
      emit("model     " + (s.availableModel() == null ? "none available" : s.availableModel()
          + " (available)"));
      return;
    }
    emit("files     " + s.files());
    emit("chunks    " + s.chunks());
    emit("semantic  " + semantic(s.model(), s.semanticCoverage(), s.semanticMessage()));
    emit("model     " + (s.availableModel() == null ? "none available" : s.availableModel()
        + " (available)"));
    emit("revision  " + (s.sourceRevision() == null ? "-" : s.sourceRevision()));
    Instant at = s.updatedAt();
    emit("updated   " + (at == null ? "-" : at + " (" + ago(at) + ")"));
    emit("size      " + bytes(s.sizeOnDiskBytes()));
    Changes c = s.changes();
    if (c != null) {
      emit("changed   " + (c.total() == 0 ? "nothing since the last index run"
          : count(c.total(), "file") + " since the last index run (" + c.added() + " added, "
              + c.modified() + " modified, " + c.deleted() + " deleted; a search re-indexes up to "
              + s.maxRefreshFiles() + ")"));
      if (!c.skipped().isEmpty()) {
        StringBuilder b = new StringBuilder("skipped   " + count(c.skippedTotal(), "file") + " (");
        String sep = "";
        for (Map.Entry<String, Integer> e : new TreeMap<>(c.skipped()).entrySet()) {
          b.append(sep).append(e.getKey()).append(' ').append(e.getValue());
          sep = ", ";
        }
        emit(b.append(")").toString());
      }
    }
  }

  private static String semantic(@Nullable String model, @Nullable Double coverage,
      @Nullable String unavailable) {
    if (unavailable != null) {
      return "unavailable (" + unavailable + "); lexical and literal search only";
    }
    if (model == null) {
      return "no embeddings yet";
    }
    return (coverage == null ? "" : String.format(Locale.ROOT, "%.0f%% of chunks embedded, ",
        Math.floor(coverage * 100))) + "model " + model;
  }

  private void emit(String line) {
    out.print(line);
    out.print('\n');
    if (out.checkError()) {
      throw new OutputClosedException();
    }
  }

  private void note(String text) {
    err.println(style.warn("note: ") + text);
  }

  /** One line: control characters (newlines, escapes) shown as spaces. */
  static String oneLine(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c == '\t' ? ' ' : Character.isISOControl(c) ? '\u00b7' : c);
    }
    return b.toString();
  }

  static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  static String seconds(long ms) {
    return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    if (n < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
  }

  private static String ago(Instant at) {
    Duration d = Duration.between(at, Instant.now());
    if (d.isNegative() || d.toSeconds() < 60) {
      return "just now";
    }
    if (d.toMinutes() < 60) {
      return d.toMinutes() + " min ago";
    }
    if (d.toHours() < 48) {
      return d.toHours() + " h ago";
    }
    return d.toDays() + " days ago";
  }
}
