package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.internal.regex.Node;
import dev.prismindex.internal.regex.RegexParser;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.RegexPattern;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Regular-expression search served from the gram index, the regex counterpart of {@link
 * LiteralSearcher}: the pattern's syntax tree (core's, the tree the matcher runs) is planned into a
 * {@link GramPlan} ({@link RegexPlanner}, codesearch's analysis), the store's files satisfying it
 * ({@link StoreReader#files}) are the candidates, and each candidate is read from the working tree (the literal searcher's
 * read: no link followed, the size cap, the binary sniff) and matched line by line with core's {@link
 * RegexPattern}, so the answers equal a scan of the indexed files with ripgrep's semantics. A
 * pattern whose plan requires no gram reads every indexed file the filter selects (the answer says
 * so: {@link Candidates#planned()}).
 */
public final class RegexSearcher {

  private final LiteralSearcher reader;

  public RegexSearcher(LiteralSearcher reader) {
    this.reader = reader;
  }

  /**
   * Compiles {@code pattern} before the index is read (so a bad pattern is never mistaken for a
   * damaged index).
   *
   * @throws IllegalArgumentException for a pattern that does not parse, or is over the pattern
   *     limit
   */
  public static RegexPattern compile(String pattern, boolean caseSensitive, boolean wholeWords) {
    try {
      return RegexPattern.compile(pattern, caseSensitive ? RegexPattern.CaseMode.SENSITIVE
          : RegexPattern.CaseMode.INSENSITIVE, wholeWords,
          RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    } catch (RepositoryException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The candidate paths of a regex search and how they were chosen.
   *
   * @param paths the candidates, in {@link String#compareTo} order
   * @param planned whether the gram index narrowed them down (false: the pattern requires no
   *     gram, so every indexed file the filter selects is read)
   */
  public record Candidates(List<String> paths, boolean planned) {}

  /** The plan of {@code pattern} over the gram index, for tests and diagnostics. */
  static GramPlan plan(RegexPattern pattern) {
    Node tree = RegexParser.parse(pattern.pattern(), pattern.caseInsensitive());
    return RegexPlanner.plan(tree);
  }

  /**
   * The files that can hold a match of {@code pattern}, among those {@code files} selects: the
   * store's answer to the pattern's plan ({@link StoreReader#files}, so any store serves regex
   * search the way it serves literal search).
   */
  public static Candidates candidates(StoreReader store, RegexPattern pattern, FileMatcher files)
      throws IOException {
    GramPlan plan = plan(pattern);
    GramQuery query = plan.toQuery();
    if (query == null) {
      return new Candidates(List.of(), true);
    }
    List<String> paths = new ArrayList<>();
    for (String path : store.files(query, files.scopes())) {
      if (files.test(path)) {
        paths.add(path);
      }
    }
    return new Candidates(paths, !(query instanceof GramQuery.All));
  }

  /**
   * The matches of {@code pattern} in the current content of {@code path} (one per matching line,
   * with every match's span), with up to {@code before} and {@code after} lines of context; none
   * when the file is gone or cannot be read as text now (then counted in {@code notSearched}).
   * The file is read into {@code buffer} (reused from file to file by one thread).
   */
  public List<LiteralMatch> verify(String path, RegexPattern pattern, RegexPattern.Matcher matcher,
      ContentReader.Buffer buffer, int before, int after, Map<String, Integer> notSearched) {
    if (!reader.read(path, notSearched, buffer)) {
      return List.of();
    }
    List<LiteralMatch> out = new ArrayList<>();
    matcher.forEachMatchingLine(buffer.bytes(), buffer.length(), (line, text, spans, count) -> {
      String readable = RegexPattern.readable(text);
      // An immutable list, so neither the match nor its hit copies it again.
      List<MatchSpan> list;
      if (count == 2) {
        list = List.of(MatchSpan.in(readable, spans[0], spans[1]));
      } else {
        MatchSpan[] all = new MatchSpan[count / 2];
        for (int i = 0; i < count; i += 2) {
          all[i / 2] = MatchSpan.in(readable, spans[i], spans[i + 1]);
        }
        list = List.of(all);
      }
      int col = list.get(0).column();
      out.add(new LiteralMatch(path, line, col,
          LiteralPattern.window(readable, col, LiteralSearcher.MAX_TEXT_BYTES),
          LiteralPattern.windowStart(readable, col, LiteralSearcher.MAX_TEXT_BYTES), List.of(),
          List.of(), list));
      return true;
    });
    if ((before > 0 || after > 0) && !out.isEmpty()) {
      List<String> lines = new ArrayList<>();
      RegexPattern.forEachLine(buffer.copy(),
          (n, line, bytes) -> lines.add(RegexPattern.readable(line)));
      out.replaceAll(m -> m.withContext(lines, before, after));
    }
    return out;
  }
}
