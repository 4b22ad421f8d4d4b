package dev.prismindex.cli.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.output.JsonObjects;
import dev.prismindex.cli.output.JsonPrinter;
import dev.prismindex.cli.output.Notes;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.tool.IndexHitText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a {@code repo_search} answer reads to an agent: the text the model reads (the hits in the
 * call's output mode, then notes on truncation, freshness, coverage and the mode) and the
 * structured content (the CLI's NDJSON hits, or files with their hit counts). Renders only: the
 * answer is already searched.
 */
final class McpSearchAnswer {
  private McpSearchAnswer() {}

  /** A hit's path as the model reads it: {@code repo/path} in a workspace. */
  static String shown(Hit h) {
    return h.repo() == null ? h.path() : h.repo() + "/" + h.path();
  }


  /**
   * The text a model reads: the hits as core's {@code repo_search} renders index results in the
   * call's output mode, then any notes.
   */
  static String text(SearchAnswer r, OutputMode outputMode) {
    List<RepositorySearchMatch> matches = new ArrayList<>(r.hits().size());
    for (Hit h : r.hits()) {
      Hit.Context c = h.context();
      matches.add(new RepositorySearchMatch(shown(h), h.line(), h.endLine(), 0, h.snippet(),
          c == null ? List.of() : c.before(), c == null ? List.of() : c.after(), h.score()));
    }
    StringBuilder out = new StringBuilder(IndexHitText.render(matches, outputMode));
    if (r.truncated()) {
      int n = r.hits().size();
      long files = r.hits().stream().map(McpSearchAnswer::shown).distinct().count();
      String most = "at most " + SearchRequests.MAX_LIMIT;
      switch (outputMode) {
        case FILES_WITH_MATCHES -> out.append("\n[").append(files).append(files == 1 ? " file"
            : " files").append(" from the first ").append(n).append(" hits; more hits exist:"
            + " raise maxMatches (").append(most).append(") to see all]");
        case COUNT -> out.replace(0, out.length(), "at least " + n).append(" matches in at"
            + " least ").append(files).append(files == 1 ? " file" : " files")
            .append(" (counted the first ").append(n).append(" hits; raise maxMatches, ")
            .append(most).append(", to count more)");
        default -> out.append("\n[more hits exist: ").append(n)
            .append(" shown; raise maxMatches to see more]");
      }
    }
    for (String skipped : r.skipped()) {
      out.append("\n[").append(skipped).append(']');
    }
    Freshness f = r.freshness();
    if (f.skippedBecauseLocked()) {
      out.append(f.indexReadOnly() ? "\n[index read-only: answered from its last commit; "
              : "\n[index being written by another run: answered from its last commit; ")
          .append(f.changedFiles()).append(" changed files not yet searched]");
    } else if (f.refreshedFiles() > 0) {
      out.append("\n[re-indexed ").append(f.refreshedFiles()).append(" changed files first]");
    }
    Double coverage = r.semanticCoverage();
    if (coverage != null && coverage < 1.0) {
      out.append("\n[semantic coverage ")
          .append(String.format(Locale.ROOT, "%.0f", Math.floor(coverage * 100)))
          .append("%: call reindex to embed the rest]");
    }
    if (r.modeReason() != null) {
      out.append("\n[mode ").append(r.mode()).append(": ").append(r.modeReason()).append(']');
    }
    if (!r.notSearched().isEmpty()) {
      out.append("\n[").append(Notes.notSearchedNote(r.notSearched())).append(']');
    }
    return out.toString();
  }

  /**
   * The structured result of {@code repo_search}: the CLI's hits (NDJSON schema v1) and context;
   * for {@code files_with_matches} and {@code count}, instead of the hits, the files with their
   * number of hits ({@code files}: {@code path}, {@code hits}), in the order of their best hit, and
   * the totals {@code fileCount} and {@code hitCount}.
   */
  static void structured(JsonGenerator g, SearchAnswer r, OutputMode outputMode)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("query", r.query());
    g.writeStringField("mode", r.mode());
    g.writeBooleanField("modeChosen", r.modeChosen());
    if (r.modeReason() == null) {
      g.writeNullField("modeReason");
    } else {
      g.writeStringField("modeReason", r.modeReason());
    }
    g.writeBooleanField("untrustedIndex", true);
    g.writeNumberField("schemaVersion", JsonPrinter.SCHEMA_VERSION);
    JsonObjects.freshness(g, r.freshness());
    if (r.semanticCoverage() == null) {
      g.writeNullField("semanticCoverage");
    } else {
      g.writeNumberField("semanticCoverage", r.semanticCoverage());
    }
    g.writeNumberField("tookMs", r.tookMs());
    g.writeBooleanField("truncated", r.truncated());
    if (outputMode == OutputMode.CONTENT) {
      g.writeArrayFieldStart("hits");
      for (Hit hit : r.hits()) {
        JsonObjects.hit(g, hit);
      }
      g.writeEndArray();
    } else {
      Map<String, Integer> files = new LinkedHashMap<>();
      for (Hit hit : r.hits()) {
        files.merge(shown(hit), 1, Integer::sum);
      }
      g.writeNumberField("fileCount", files.size());
      g.writeNumberField("hitCount", r.hits().size());
      g.writeArrayFieldStart("files");
      for (Map.Entry<String, Integer> f : files.entrySet()) {
        g.writeStartObject();
        g.writeStringField("path", f.getKey());
        g.writeNumberField("hits", f.getValue());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (!r.repos().isEmpty()) {
      // A workspace: each repository's freshness, and the optional ones left out.
      g.writeObjectFieldStart("repos");
      for (Map.Entry<String, Freshness> e : new TreeMap<>(r.repos()).entrySet()) {
        g.writeObjectFieldStart(e.getKey());
        JsonObjects.freshness(g, e.getValue());
        g.writeEndObject();
      }
      g.writeEndObject();
      g.writeArrayFieldStart("skipped");
      for (String s : r.skipped()) {
        g.writeString(s);
      }
      g.writeEndArray();
    }
    if (r.mode().equals("literal")) {
      JsonObjects.counts(g, "notSearched", r.notSearched());
    }
    g.writeEndObject();
  }
}
