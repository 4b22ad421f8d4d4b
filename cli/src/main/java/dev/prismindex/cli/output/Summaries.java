package dev.prismindex.cli.output;

import static dev.prismindex.cli.output.Notes.byReason;
import static dev.prismindex.cli.output.Notes.count;
import static dev.prismindex.cli.output.Style.Role.BOLD;
import static dev.prismindex.cli.output.Style.Role.DIM;

import dev.prismindex.cli.output.Results.Changes;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.Server;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.output.Results.Tier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The lines of the {@code index} and {@code status} summaries for people ({@link HumanPrinter}). */
final class Summaries {

  private final Style style;
  private final List<Line> lines = new ArrayList<>();

  private Summaries(Style style) {
    this.style = style;
  }

  /** The summary of an index run: what was seen and done, the index, its semantic state. */
  static List<Line> index(Style style, IndexSummary s) {
    Summaries text = new Summaries(style);
    text.index(s);
    return text.lines;
  }

  /** The state of an index (of each repository of a workspace). */
  static List<Line> status(Style style, StatusReport s) {
    Summaries text = new Summaries(style);
    text.status(s);
    return text.lines;
  }

  private Line line() {
    return new Line(style);
  }

  private void emit(Line line) {
    lines.add(line);
  }

  private void emit(String text) {
    lines.add(line().text(text));
  }

  private void index(IndexSummary s) {
    emit((s.committed() ? "indexed " : "index up to date: ") + count(s.filesSeen(), "file")
        + " seen in " + seconds(s.durationMs()) + " ("
        + s.added() + " added, " + s.changed() + " changed, " + s.deleted() + " deleted, "
        + s.unchanged() + " unchanged, " + s.skippedTotal() + " skipped)");
    emit("  chunks   " + s.chunksWritten() + " written, " + s.chunksEmbedded() + " embedded, "
        + s.chunksReused() + " reused from the embedding cache");
    if (!s.skipped().isEmpty()) {
      emit("  skipped  " + byReason(s.skipped()));
    }
    emit("  index    " + count(s.files(), "file") + ", " + count(s.chunks(), "chunk") + ", "
        + bytes(s.sizeOnDiskBytes()) + " at " + s.indexDir());
    emit("  semantic " + semantic(s.model(), s.semanticCoverage(), s.semanticMessage()));
    if (s.sourceRevision() != null) {
      emit("  revision " + s.sourceRevision());
    }
  }

  private void status(StatusReport s) {
    if (!s.repos().isEmpty()) {
      Line state = line().text(BOLD, "workspace ").text(s.repo() + ", "
          + count(s.repos().size(), "repository").replace("repositorys", "repositories") + ": "
          + s.state().wireName());
      if (s.problem() != null) {
        state.text(DIM, "  (" + s.problem() + ")");
      }
      emit(state);
      for (StatusReport r : s.repos()) {
        emit(line());
        emit(line().text(BOLD, "repository ").text(String.valueOf(r.name())));
        status(r);
      }
      return;
    }
    Line state = line().text(BOLD, "state     ").text(s.state().wireName());
    if (s.problem() != null) {
      state.text(DIM, "  (" + s.problem() + ")");
    }
    emit(state);
    emit("repo      " + s.repo());
    emit("index     " + s.indexDir());
    Server server = s.server();
    emit("server    " + (server == null
        ? "none answered (a search or status starts one in the background unless"
            + " PRISM_INDEX_SERVE=0)"
        : server.kind() + ", pid " + server.pid() + ", started " + ago(server.startedAt())
            + idleTimeout(server.idleTimeout()) + "; watching: " + server.watch()));
    if (!s.state().searchable() && s.changes() == null) {
      emit("model     " + (s.availableModel() == null ? "none available" : s.availableModel()
          + " (available)"));
      return;
    }
    emit("files     " + s.files());
    emit("chunks    " + s.chunks());
    emit("semantic  " + semantic(s.model(), s.semanticCoverage(), s.semanticMessage()));
    for (Tier t : s.tiers()) {
      emit("tier      " + t.model() + (t.kind() == null ? "" : " (" + t.kind() + ")") + ": "
          + t.chunksCovered() + " of " + count(t.chunks(), "chunk") + " embedded, " + t.state());
    }
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
        emit("skipped   " + count(c.skippedTotal(), "file") + " (" + byReason(c.skipped()) + ")");
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

  private static String idleTimeout(@Nullable Duration idle) {
    if (idle == null) {
      return "";
    }
    long s = idle.toSeconds();
    return s == 0 ? ", no idle timeout" : ", idle timeout " + (s % 60 == 0 ? s / 60 + " min"
        : s + " s");
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
