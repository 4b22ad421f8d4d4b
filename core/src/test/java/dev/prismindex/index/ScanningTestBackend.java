package dev.prismindex.index;

import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * <b>Test fixture, not a product backend.</b> The smallest honest {@link RepositoryIndexBackend}: on
 * update it reads the changed files from the repository root into a map; a query scans the map. It
 * exists to prove that {@link RepositoryIndexBackendContractTest} is satisfiable and to give the
 * composite's tests a real backend; it has no index structure and no performance to speak of.
 *
 * <p>{@code indexed_literal}: one hit per file, on its first line containing the query
 * (case-insensitive unless requested, comparing {@code toLowerCase(Locale.ROOT)}), score 1. With
 * {@code semantic} enabled, a "semantic" query scores each file by the share of query words (lower
 * case, split on non-letters/digits) found in it; again one hit per file, on its best line.
 */
public final class ScanningTestBackend implements RepositoryIndexBackend {

  private final Path root;
  private final boolean semantic;
  private final Map<String, List<String>> files = new TreeMap<>();
  private IndexState state = IndexState.EMPTY;
  private @Nullable String revision;
  private @Nullable Long updatedAt;
  private boolean disposed;

  /** A backend over {@code root} answering {@code indexed_literal} only. */
  public ScanningTestBackend(Path root) {
    this(root, false);
  }

  /** A backend over {@code root}; {@code semantic} enables the word-overlap "semantic" mode. */
  public ScanningTestBackend(Path root, boolean semantic) {
    this.root = root.toAbsolutePath().normalize();
    this.semantic = semantic;
  }

  @Override
  public IndexCapabilities capabilities() {
    return semantic ? IndexCapabilities.SEMANTIC : IndexCapabilities.LITERAL_ONLY;
  }

  @Override
  public synchronized void update(IndexUpdateRequest request) throws IOException {
    requireOpen();
    for (IndexFileChange change : request.changes()) {
      String path = change.path();
      if (change.kind() == IndexFileChangeKind.DELETE) {
        files.remove(path);
        continue;
      }
      try {
        files.put(path, lines(Files.readAllBytes(root.resolve(path))));
      } catch (NoSuchFileException gone) {
        files.remove(path);
      }
    }
    revision = request.sourceRevision();
    updatedAt = System.currentTimeMillis();
    state = IndexState.READY;
  }

  @Override
  public synchronized void remove(IndexRemoveRequest request) throws IOException {
    requireOpen();
    for (String path : request.paths()) {
      files.remove(path);
    }
    if (state == IndexState.READY) {
      updatedAt = System.currentTimeMillis();
    }
  }

  @Override
  public synchronized IndexQueryResult search(IndexQuery query) throws IOException {
    requireOpen();
    if (query.mode() == SearchMode.SEMANTIC && !semantic) {
      throw new IOException("semantic search is not available");
    }
    List<IndexSearchHit> hits = new ArrayList<>();
    boolean truncated = false;
    for (Map.Entry<String, List<String>> file : files.entrySet()) {
      if (query.signal().isAborted()) {
        throw new IOException("aborted");
      }
      if (!dev.prismindex.repository.RelativePath.isInScope(query.scope(), file.getKey())) {
        continue;
      }
      IndexSearchHit hit = query.mode() == SearchMode.SEMANTIC
          ? semanticHit(file.getKey(), file.getValue(), query.query())
          : literalHit(file.getKey(), file.getValue(), query.query(), query.caseSensitive());
      if (hit == null) {
        continue;
      }
      if (hits.size() == query.maxResults()) {
        truncated = true;
        break;
      }
      hits.add(hit);
    }
    if (query.mode() == SearchMode.SEMANTIC) {
      hits.sort((a, b) -> Double.compare(b.score(), a.score()));
    }
    return new IndexQueryResult(hits, truncated);
  }

  @Override
  public synchronized IndexStatus status() throws IOException {
    requireOpen();
    long bytes = 0;
    for (List<String> lines : files.values()) {
      for (String line : lines) {
        bytes += line.length() * 2L;
      }
    }
    return new IndexStatus(state, revision, updatedAt,
        new IndexDiagnostics(files.size(), bytes, updatedAt));
  }

  @Override
  public synchronized void dispose() {
    disposed = true;
    files.clear();
  }

  private void requireOpen() throws IOException {
    if (disposed) {
      throw new IOException("backend is disposed");
    }
  }

  private static @Nullable IndexSearchHit literalHit(
      String path, List<String> lines, String query, boolean caseSensitive) {
    String needle = caseSensitive ? query : query.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int at = (caseSensitive ? line : line.toLowerCase(Locale.ROOT)).indexOf(needle);
      if (at >= 0) {
        return new IndexSearchHit(path, 1.0, line, i + 1, i + 1, at + 1);
      }
    }
    return null;
  }

  private static @Nullable IndexSearchHit semanticHit(String path, List<String> lines, String query) {
    String[] words = query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+");
    int bestLine = -1;
    double bestScore = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).toLowerCase(Locale.ROOT);
      int found = 0;
      int total = 0;
      for (String word : words) {
        if (!word.isEmpty()) {
          total++;
          found += line.contains(word) ? 1 : 0;
        }
      }
      double score = total == 0 ? 0 : (double) found / total;
      if (score > bestScore) {
        bestScore = score;
        bestLine = i;
      }
    }
    return bestLine < 0 ? null
        : new IndexSearchHit(path, bestScore, lines.get(bestLine), bestLine + 1, bestLine + 1, 0);
  }

  private static List<String> lines(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int newline = text.indexOf('\n', start);
      int end = newline < 0 ? text.length() : newline;
      int cut = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
      lines.add(text.substring(start, cut));
      start = end + 1;
    }
    return lines;
  }
}
