package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.RegexPattern;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The exact modes (LITERAL and INDEXED_LITERAL, REGEX) as one stream: candidates from the gram
 * index ({@link LiteralSearcher}, {@link RegexSearcher}), then each candidate verified against the
 * working tree in path order and its matches handed to the sink at once, file by file, in line
 * order, until the limit (one further match is looked for, to say whether the answer is cut). A
 * literal match carries the span of its occurrence, a regex match every match of its line.
 */
public final class ExactSearch {

  /**
   * What a search found besides its matches.
   *
   * @param truncated whether a further match exists beyond the limit
   * @param notSearched candidates that could not be read as text now, by reason
   * @param everyFileRead REGEX: the pattern required no gram, so every candidate was read
   */
  public record Outcome(boolean truncated, Map<String, Integer> notSearched,
      boolean everyFileRead) {}

  private final LiteralSearcher literal;
  private final RegexSearcher regex;


  public ExactSearch(LiteralSearcher literal) {
    this.literal = literal;
    this.regex = new RegexSearcher(literal);
  }

  /**
   * Compiles the query of an exact mode before the index is read, so that a bad query is a usage
   * error rather than a failed search: a {@link LiteralPattern} (null for the empty query, which
   * matches nothing) or a {@link RegexPattern}.
   *
   * @throws IllegalArgumentException for a pattern that does not compile
   */
  public static @Nullable Object compile(SearchMode mode, String query, boolean caseSensitive,
      boolean wholeWords) {
    return mode == SearchMode.REGEX ? RegexSearcher.compile(query, caseSensitive, wholeWords)
        : LiteralSearcher.compile(query, caseSensitive);
  }

  /**
   * Streams the matches of {@code pattern} ({@link #compile}d) among the files {@code files}
   * selects, the candidates read from {@code store} ({@link StoreReader#files}).
   *
   * @param limit the most matches handed over ({@link Integer#MAX_VALUE}: all of them)
   * @param maxPerFile the most matches of one file, the first ones (0: no cap; the rest of the
   *     file is not looked at, as grep's {@code -m})
   * @param before context lines before each match, {@code after} after it
   */
  public Outcome stream(StoreReader store, @Nullable Object pattern, String query,
      FileMatcher files, int limit, int maxPerFile, int before, int after, AbortSignal signal,
      Consumer<LiteralMatch> sink) throws IOException {
    Map<String, Integer> notSearched = new TreeMap<>();
    if (pattern == null) {
      return new Outcome(false, notSearched, false);
    }
    int perFile = maxPerFile > 0 ? maxPerFile : Integer.MAX_VALUE;
    if (pattern instanceof RegexPattern rp) {
      RegexSearcher.Candidates c = RegexSearcher.candidates(store, rp, files);
      long[] emitted = {0};
      // One matcher a thread for the whole search (the runs of one thread are verified one
      // after another), held by this search only (a ThreadLocal would leave stale entries in
      // the pool's threads); one read buffer a run, from the few the process keeps between
      // searches (ContentReader.Buffer.take: a buffer made a search would be promoted to the
      // old generation by a collection during the answer, and fill it answer after answer).
      Map<Thread, RegexPattern.Matcher> matchers = new ConcurrentHashMap<>();
      boolean all = OrderedVerify.run(c.paths(), () -> {
        RegexPattern.Matcher matcher =
            matchers.computeIfAbsent(Thread.currentThread(), t -> rp.matcher());
        ContentReader.Buffer buffer = ContentReader.Buffer.take();
        return new OrderedVerify.FileCheck<LiteralMatch>() {
          @Override
          public List<LiteralMatch> check(String path, Map<String, Integer> skipped) {
            return regex.verify(path, rp, matcher, buffer, before, after, skipped);
          }

          @Override
          public void done() {
            buffer.release();
          }
        };
      }, notSearched, signal, (path, matches) -> {
        int fromFile = 0;
        for (LiteralMatch m : matches) {
          if (fromFile == perFile) {
            break;
          }
          if (emitted[0] == limit) {
            return false;
          }
          sink.accept(m);
          emitted[0]++;
          fromFile++;
        }
        return true;
      });
      return new Outcome(!all, notSearched, !c.planned());
    }
    LiteralPattern lp = (LiteralPattern) pattern;
    List<String> candidates = new ArrayList<>();
    for (String path : store.files(LiteralSearcher.plan(query, lp.caseSensitive()),
        files.scopes())) {
      if (files.test(path)) {
        candidates.add(path);
      }
    }
    long emitted = 0;
    for (String path : candidates) {
      if (signal.isAborted()) {
        return new Outcome(true, notSearched, false);
      }
      int remaining = (int) Math.min(Integer.MAX_VALUE, limit - emitted);
      // Truncated by the cap when it is below the limit left: then the next file follows.
      int wanted = perFile < remaining ? perFile : remaining;
      LiteralResult r = literal.verify(List.of(path), lp, wanted, wanted == 1 && perFile == 1,
          before, after, signal);
      r.notSearched().forEach((k, v) -> notSearched.merge(k, v, Integer::sum));
      for (LiteralMatch m : r.matches()) {
        sink.accept(m.pathOnly() ? m : m.withSpans(List.of(span(lp, m))));
        emitted++;
      }
      if (r.truncated() && perFile > remaining) {
        return new Outcome(true, notSearched, false);
      }
    }
    return new Outcome(false, notSearched, false);
  }

  /** The span of a literal match's occurrence in its whole line. */
  private static MatchSpan span(LiteralPattern pattern, LiteralMatch m) {
    // The occurrence begins in the match's text (a window of a long line, from textStart).
    int end = pattern.endColumn(m.text());
    int start = m.column() - 1 - m.textStart();
    int stop = end > 0 ? end - 1 : Math.min(m.text().length(), start + pattern.query().length());
    MatchSpan inText = MatchSpan.in(m.text(), start, stop);
    return new MatchSpan(m.column(), m.textStart() + stop + 1, inText.text());
  }
}
