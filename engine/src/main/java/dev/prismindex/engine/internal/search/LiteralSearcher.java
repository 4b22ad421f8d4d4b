package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Exact substring search with the literal scanner's semantics, served from any store's gram index:
 * the query's plan ({@link #plan}: its grams, see {@link Grams}) selects candidate files (a
 * superset of the matching files, {@link StoreReader#files}), which are then read in path order
 * and verified line by line with core's {@link LiteralPattern}, the literal scanner's own semantics
 * (case rules, line splitting and decoding, every line searched however long, first occurrence per
 * line, 1-based UTF-16 columns),
 * so the answers equal the scanner's on the same files. Verification reads the current file, so
 * every match served is true of the working tree now. A match's text is bounded: a line over
 * {@value #MAX_TEXT_BYTES} UTF-8 bytes is cut to {@link LiteralPattern#window} around the match.
 * A candidate that can no longer be read as text (unreadable, binary, over the size cap) is counted
 * in {@link LiteralResult#notSearched()}; one that is gone is not (there is nothing to search).
 *
 * <p>Path rule: a file whose repository-relative path contains the query (same case rule) but
 * whose content does not is reported once, at line 1 with column 0, with its first line (or its
 * path, when that line is empty) as text. The scanner matches content only.
 */
public final class LiteralSearcher {

  /** The most UTF-8 bytes of a line a match holds (longer lines are cut to a window). */
  public static final int MAX_TEXT_BYTES = 4096;

  private final ContentReader source;

  public LiteralSearcher(Path root, long maxFileBytes) {
    this(ContentReader.tree(root, maxFileBytes));
  }

  /** A searcher that verifies candidates against {@code source}'s files. */
  public LiteralSearcher(ContentReader source) {
    this.source = source;
  }

  /**
   * The pattern of {@code query}, compiled before the index is read (so a bad query is never
   * mistaken for a damaged index); null for the empty query, which matches nothing.
   *
   * @throws IllegalArgumentException when the query is over the literal pattern limit
   */
  public static @Nullable LiteralPattern compile(String query, boolean caseSensitive) {
    if (query.isEmpty()) {
      return null;
    }
    try {
      return LiteralPattern.compile(query, caseSensitive,
          RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    } catch (RepositoryException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The plan of {@code query}'s candidates: the files holding every gram the query must contain
   * ({@link Grams#queryGrams}), every file for a query without grams.
   */
  public static GramQuery plan(String query, boolean caseSensitive) {
    return GramQuery.allOf(Grams.queryGrams(query, caseSensitive));
  }

  /**
   * The matches of {@code pattern} in the current content of {@code candidates} (paths in
   * {@link String#compareTo} order, a superset of the files that match and that the search's
   * filter selects, from any store: {@link StoreReader#files}), with the scanner's semantics and up
   * to {@code before} and {@code after} lines of context.
   */
  public LiteralResult verify(List<String> candidates, LiteralPattern pattern, int maxMatches,
      boolean onePerFile, int before, int after, AbortSignal signal) {
    boolean context = before > 0 || after > 0;
    List<LiteralMatch> out = new ArrayList<>();
    Map<String, Integer> notSearched = new TreeMap<>();
    boolean[] truncated = {false};
    for (String path : candidates) {
      if (signal.isAborted()) {
        return new LiteralResult(out, true, notSearched);
      }
      byte[] content = read(path, notSearched);
      if (content == null) {
        continue;
      }
      boolean[] found = {false};
      boolean[] fileDone = {false};
      String[] firstLine = {null};
      int fileStart = out.size();
      List<String> lines = context ? new ArrayList<>() : null;
      // With context, lines are kept after the cap is reached until the last match has its own.
      int[] linesWanted = {Integer.MAX_VALUE};
      LiteralPattern.LineVisitor visitor = (line, text, bytes) -> {
        if (lines != null) {
          lines.add(text);
          if (lines.size() >= linesWanted[0]) {
            return false;
          }
        }
        if (truncated[0] || fileDone[0]) {
          return true;
        }
        if (line == 1) {
          firstLine[0] = text;
        }
        int col = pattern.column(text);
        if (col == 0) {
          return true;
        }
        found[0] = true;
        if (out.size() == maxMatches) {
          truncated[0] = true;
          if (lines == null || out.size() == fileStart) {
            return false;
          }
          linesWanted[0] = out.get(out.size() - 1).line() + after;
          return lines.size() < linesWanted[0];
        }
        out.add(new LiteralMatch(path, line, col, LiteralPattern.window(text, col, MAX_TEXT_BYTES),
            LiteralPattern.windowStart(text, col, MAX_TEXT_BYTES)));
        if (onePerFile) {
          fileDone[0] = true;
          linesWanted[0] = line + after;
          return lines != null && lines.size() < linesWanted[0];
        }
        return true;
      };
      if (context) {
        LiteralPattern.forEachLine(content, visitor);
      } else {
        // Without context only the lines that may match are decoded.
        pattern.forEachCandidateLine(content, visitor);
      }
      if (!found[0] && !truncated[0] && pattern.column(path) > 0) {
        if (out.size() == maxMatches) {
          return new LiteralResult(out, true, notSearched);
        }
        if (!context && content.length > 0) {
          LiteralPattern.forEachLine(content, (line, text, bytes) -> {
            firstLine[0] = text;
            return false;
          });
        }
        String first = firstLine[0] == null || firstLine[0].isBlank() ? path
            : LiteralPattern.window(firstLine[0], 0, MAX_TEXT_BYTES);
        out.add(new LiteralMatch(path, 1, 0, first));
      }
      if (lines != null) {
        for (int i = fileStart; i < out.size(); i++) {
          out.set(i, out.get(i).withContext(lines, before, after));
        }
      }
      if (truncated[0]) {
        return new LiteralResult(out, true, notSearched);
      }
    }
    return new LiteralResult(out, false, notSearched);
  }

  /**
   * The content of a candidate, or null: when it is gone (or no longer a regular file: not
   * counted), or cannot be read as text now (counted in {@code notSearched} by reason).
   */
  byte @Nullable [] read(String path, Map<String, Integer> notSearched) {
    return source.read(path, notSearched);
  }

  /** {@link #read(String, Map)} into {@code into} (false for null). */
  boolean read(String path, Map<String, Integer> notSearched, ContentReader.Buffer into) {
    return source.read(path, notSearched, into);
  }
}
