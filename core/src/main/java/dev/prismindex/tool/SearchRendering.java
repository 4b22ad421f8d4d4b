package dev.prismindex.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.index.IndexAttestation;
import dev.prismindex.repository.OutputMode;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import java.util.List;
import java.util.TreeSet;

/**
 * Renders a {@link RepositorySearchResult} as the tool's text and metadata.
 *
 * <p>Every path and every line of text passes through {@link SafeText}, so each output line is exactly
 * one match line ({@code path:line:column:text}), one context line ({@code path-text} /
 * {@code path+text}), one path, one count, or one truncation footer.
 */
final class SearchRendering {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private SearchRendering() {}

  /** The text a model reads for {@code result} in {@code mode}. */
  static String text(RepositorySearchResult result, OutputMode mode) {
    List<RepositorySearchMatch> matches = result.matches();
    String by = result.truncatedBy() == null ? "limit" : result.truncatedBy().wireName();
    if (matches.isEmpty()) {
      if (result.truncated()) {
        return "[truncated by " + by + " before any matches]";
      }
      return mode == OutputMode.COUNT ? "0 matches in 0 files" : "(no matches)";
    }
    String body;
    switch (mode) {
      case FILES_WITH_MATCHES:
        body = filesWithMatches(matches);
        break;
      case COUNT:
        int files = uniquePaths(matches).size();
        body = matches.size() + " matches in " + files + (files == 1 ? " file" : " files");
        break;
      case CONTENT:
      default:
        body = content(matches);
        break;
    }
    return result.truncated() ? body + "\n[truncated by " + by + "]" : body;
  }

  private static String content(List<RepositorySearchMatch> matches) {
    StringBuilder out = new StringBuilder();
    for (RepositorySearchMatch match : matches) {
      String path = SafeText.escape(match.path());
      for (String before : match.before()) {
        out.append(path).append('-').append(SafeText.line(before)).append('\n');
      }
      out.append(path)
          .append(':').append(match.line())
          .append(':').append(match.column())
          .append(':').append(SafeText.line(match.text()));
      if (match.score() != null) {
        out.append(" [score ").append(SafeText.score(match.score())).append(']');
      }
      out.append('\n');
      for (String after : match.after()) {
        out.append(path).append('+').append(SafeText.line(after)).append('\n');
      }
    }
    out.setLength(out.length() - 1);
    return out.toString();
  }

  private static String filesWithMatches(List<RepositorySearchMatch> matches) {
    StringBuilder out = new StringBuilder();
    for (String path : uniquePaths(matches)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append(SafeText.escape(path));
    }
    return out.toString();
  }

  /** The distinct paths in UTF-16 code-unit order. */
  private static TreeSet<String> uniquePaths(List<RepositorySearchMatch> matches) {
    TreeSet<String> paths = new TreeSet<>();
    for (RepositorySearchMatch match : matches) {
      paths.add(match.path());
    }
    return paths;
  }

  /** The structured form of {@code result}: counters, truncation, index attestation, matches. */
  static ObjectNode metadata(RepositorySearchResult result, OutputMode mode) {
    ObjectNode meta = JSON.objectNode();
    meta.put("outputMode", mode.wireName());
    meta.put("truncated", result.truncated());
    if (result.truncatedBy() == null) {
      meta.putNull("truncatedBy");
    } else {
      meta.put("truncatedBy", result.truncatedBy().wireName());
    }
    meta.put("matchCount", result.matches().size());
    meta.put("scannedBytes", result.scannedBytes());
    meta.put("scannedFiles", result.scannedFiles());
    meta.put("scannedEntries", result.scannedEntries());
    meta.put("filesSkippedBinary", result.filesSkippedBinary());
    meta.put("filesSkippedOversize", result.filesSkippedOversize());
    meta.put("filesSkippedUnreadable", result.filesSkippedUnreadable());
    IndexAttestation indexed = result.indexed();
    if (indexed != null) {
      meta.put("untrusted_index", result.untrustedIndex());
      meta.put("indexMode", indexed.mode().wireName());
      meta.put("indexState", indexed.state().wireName());
      if (indexed.sourceRevision() != null) {
        meta.put("indexRevision", indexed.sourceRevision());
      }
      if (indexed.updatedAt() != null) {
        meta.put("indexUpdatedAt", indexed.updatedAt());
      }
    }
    if (mode == OutputMode.CONTENT) {
      ArrayNode matches = meta.putArray("matches");
      for (RepositorySearchMatch match : result.matches()) {
        matches.add(match(match));
      }
    } else {
      meta.put("fileCount", uniquePaths(result.matches()).size());
    }
    return meta;
  }

  private static ObjectNode match(RepositorySearchMatch match) {
    ObjectNode node = JSON.objectNode();
    node.put("path", match.path());
    node.put("line", match.line());
    node.put("endLine", match.endLine());
    node.put("column", match.column());
    node.put("text", match.text());
    ArrayNode before = node.putArray("before");
    match.before().forEach(before::add);
    ArrayNode after = node.putArray("after");
    match.after().forEach(after::add);
    Double score = match.score();
    if (score != null) {
      if (Double.isFinite(score)) {
        node.put("score", score);
      } else {
        node.putNull("score");
      }
    }
    return node;
  }
}
