package dev.prismindex.repository;

import dev.prismindex.internal.regex.CodePointSet;
import dev.prismindex.internal.regex.Prefilter;
import dev.prismindex.internal.regex.RegexMatcher;
import dev.prismindex.repository.RegexPattern.Matcher.LineVisitor;
import dev.prismindex.repository.RegexPattern.Matcher.MatchVisitor;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The search of a file for the lines that hold a match of a {@link RegexPattern}, behind {@link
 * RegexPattern.Matcher#forEachMatchingLine}: the required literals of the pattern ({@link
 * Prefilter}) or the classes its matches start with ({@link ClassRuns}) looked for first, in the
 * bytes where they can be, so that only the lines that may hold a match are decoded and matched;
 * a pattern that is only strings matched with the JVM's string search; and the one walk of a
 * line's matches in ripgrep's order ({@link #forEachMatch}). Not thread-safe: one per {@link
 * RegexPattern.Matcher}, whose {@link RegexMatcher} it shares.
 */
final class RegexLines {

  private final RegexMatcher matcher;
  private final @Nullable Prefilter prefilter;
  /** The prefilter's literals, looked for up to ASCII case ({@link Prefilter#asciiCases}). */
  private final boolean asciiCases;
  /** The prefilter's literals and how they are looked for (none without one). */
  private final RequiredLiterals literals;
  /**
   * Without a required literal, for a pattern whose matches start with code points of known
   * classes (the first one {@link RegexMatcher#first}): where such a run may start in the bytes;
   * null when a match may be empty or a literal is required.
   */
  private final @Nullable ClassRuns runs;
  /**
   * Whether the literals are looked for in the bytes ({@link #forEachCandidateLine}): every one
   * ASCII, looked for as it is or up to ASCII case.
   */
  private final boolean inBytes;
  /**
   * The strings of a pattern that is only strings, or null: a line's matches are then found
   * with the JVM's string search ({@link #findStrings}) instead of the automaton.
   */
  private final String @Nullable [] strings;
  private int[] spans = new int[16];
  private int foundCount;
  private final MatchVisitor spanRecorder = this::recordSpan;

  RegexLines(RegexMatcher matcher, @Nullable Prefilter prefilter, CodePointSet[] then,
      String @Nullable [] strings) {
    this.matcher = matcher;
    this.strings = strings;
    this.prefilter = prefilter;
    this.asciiCases = prefilter != null && prefilter.asciiCases();
    this.literals = new RequiredLiterals(prefilter == null ? List.of() : prefilter.literals(),
        asciiCases);
    this.inBytes = prefilter != null && (asciiCases || !prefilter.lowered())
        && literals.allAscii();
    CodePointSet first = matcher.first();
    this.runs = prefilter == null && first != null ? new ClassRuns(first, then) : null;
  }

  /** {@link RegexPattern.Matcher#forEachMatchingLine(byte[], int, LineVisitor)}. */
  void forEachMatchingLine(byte[] content, int length, LineVisitor visitor) {
    Objects.checkFromIndexSize(0, length, content.length);
    ClassRuns classRuns = runs;
    if (classRuns != null) {
      forEachCandidateLine(content, length, from -> classRuns.next(content, length, from),
          visitor);
      return;
    }
    if (inBytes) {
      // Looked for in the bytes themselves: no copy, no decoding.
      forEachCandidateLine(content, length, literals.in(content, length)::first, visitor);
      return;
    }
    String text = decode(content, length);
    int n = text.length();
    if (prefilter == null) {
      int lineNo = 1;
      for (int start = 0; start < n; lineNo++) {
        int end = text.indexOf('\n', start);
        if (end < 0) {
          end = n;
        }
        if (!matchLine(text, start, end, lineNo, visitor)) {
          return;
        }
        start = end + 1;
      }
      return;
    }
    // Lowered (not up to ASCII case): looked for in the lower-cased text, whose line feeds are
    // the text's.
    String hay = prefilter.lowered() && !asciiCases ? text.toLowerCase(Locale.ROOT) : text;
    RequiredLiterals.Occurrences occurrences = literals.in(hay);
    int hayPos = 0;
    int hayLineStart = 0;
    int lineStart = 0;
    int lineNo = 1;
    while (true) {
      int p = occurrences.first(hayPos);
      if (p < 0) {
        return;
      }
      // Walk to the line holding the occurrence, in the text and in the lowered text alike.
      boolean same = hay == text;
      int nl = hay.indexOf('\n', hayLineStart);
      while (nl >= 0 && nl < p) {
        lineNo++;
        lineStart = same ? nl + 1 : text.indexOf('\n', lineStart) + 1;
        hayLineStart = nl + 1;
        nl = hay.indexOf('\n', hayLineStart);
      }
      int end = same ? nl : text.indexOf('\n', lineStart);
      if (end < 0) {
        end = n;
      }
      if (!matchLine(text, lineStart, end, lineNo, visitor) || end >= n || nl < 0) {
        return;
      }
      lineNo++;
      lineStart = end + 1;
      hayLineStart = nl + 1;
      hayPos = hayLineStart;
    }
  }

  /** Where a match may start: the first such byte at or after {@code from}, -1 when none. */
  @FunctionalInterface
  private interface Candidates {
    int next(int from);
  }

  /**
   * {@link #forEachMatchingLine} over the bytes, for a pattern whose possible starts are found
   * there ({@link ClassRuns}, or the ASCII required literals: an ASCII byte of UTF-8 is always
   * that character, never part of a longer one nor of an ill-formed subsequence, so their
   * occurrences in the bytes are those in the decoded text): only a line holding a candidate is
   * decoded and matched, and line feeds are counted only up to the lines that hold a match.
   */
  private void forEachCandidateLine(byte[] b, int n, Candidates candidates,
      LineVisitor visitor) {
    int counted = 0;
    int countedLine = 1;
    int floor = 0; // the start of the first line not yet matched
    while (true) {
      int found = candidates.next(floor);
      if (found < 0) {
        return;
      }
      int start = found;
      while (start > floor && b[start - 1] != '\n') {
        start--;
      }
      int end = found;
      while (end < n && b[end] != '\n') {
        end++;
      }
      String line = Utf8Decoder.decode(b, start, end - start, RegexPattern.NOT_UTF8);
      if (findAll(line, 0, line.length()) > 0) {
        countedLine += LineFeeds.count(b, counted, start);
        counted = start;
        if (!visitor.line(countedLine, line, spans, foundCount)) {
          return;
        }
      }
      if (end >= n) {
        return;
      }
      floor = end + 1;
    }
  }

  /**
   * Finds the matches of the line {@code text[start, end)} and visits it, as its own string with
   * spans of it, when it has any.
   */
  private boolean matchLine(String text, int start, int end, int lineNo,
      LineVisitor visitor) {
    if (findAll(text, start, end) == 0) {
      return true;
    }
    String line = start == 0 && end == text.length() ? text : text.substring(start, end);
    return visitor.line(lineNo, line, spans, foundCount);
  }

  /**
   * Finds the matches of the line {@code text[start, end)} into {@link #spans}, as indices of
   * the line; returns (and keeps in {@link #foundCount}) the number of values used.
   */
  private int findAll(String text, int start, int end) {
    if (strings != null && start == 0 && end == text.length()) {
      return findStrings(text);
    }
    foundCount = 0;
    forEachMatch(text, start, end, spanRecorder);
    return foundCount;
  }

  /**
   * Visits every match of the line {@code text[start, end)}, as indices of the line, in the order
   * {@link RegexPattern.Matcher#forEach} documents: each search starts where the last match ended
   * (one code point further after an empty one), and an empty match right at the end of the last
   * match is skipped.
   *
   * @return the number of matches visited
   */
  int forEachMatch(String text, int start, int end, MatchVisitor visitor) {
    int count = 0;
    int from = start;
    int lastEnd = -1;
    while (from <= end && matcher.find(text, start, end, from)) {
      int s = matcher.start();
      int e = matcher.end();
      if (s == e) {
        from = e < end ? e + Character.charCount(text.codePointAt(e)) : e + 1;
        if (e == lastEnd) {
          continue;
        }
      } else {
        from = e;
      }
      lastEnd = e;
      count++;
      if (!visitor.match(s - start, e - start)) {
        break;
      }
    }
    return count;
  }

  /** Keeps a match of {@link #findAll} in {@link #spans}: an empty one only as the line's first. */
  private boolean recordSpan(int start, int end) {
    if (start < end || foundCount == 0) {
      addSpan(start, end);
    }
    return true;
  }

  private void addSpan(int start, int end) {
    if (foundCount + 2 > spans.length) {
      spans = Arrays.copyOf(spans, spans.length * 2);
    }
    spans[foundCount++] = start;
    spans[foundCount++] = end;
  }

  /**
   * {@link #findAll} of a whole line for a pattern that is only {@link #strings}: leftmost-first
   * is then the earliest occurrence of any of them, the first in the pattern's order where
   * several start at once, and the next match is looked for from its end (none is empty).
   */
  private int findStrings(String line) {
    String[] alternatives = strings;
    foundCount = 0;
    int from = 0;
    while (true) {
      int best = -1;
      int bestEnd = 0;
      for (String s : alternatives) {
        int at = line.indexOf(s, from);
        if (at >= 0 && (best < 0 || at < best)) {
          best = at;
          bestEnd = at + s.length();
        }
      }
      if (best < 0) {
        return foundCount;
      }
      addSpan(best, bestEnd);
      from = bestEnd;
    }
  }

  /**
   * The whole of {@code content} decoded for matching as {@link RegexPattern#forEachLine} decodes
   * each line (ill-formed UTF-8 marked with {@link RegexPattern#NOT_UTF8}, CRs kept), line breaks
   * included: what {@link #forEachMatchingLine} searches.
   */
  private static String decode(byte[] content, int length) {
    return Utf8Decoder.decode(content, 0, length, RegexPattern.NOT_UTF8);
  }
}
