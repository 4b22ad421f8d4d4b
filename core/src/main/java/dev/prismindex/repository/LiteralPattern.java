package dev.prismindex.repository;

import dev.prismindex.internal.Utf8;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The literal search semantics, in one place: how a query matches a line and how file bytes become
 * numbered lines. The literal scanner uses exactly this class, and index backends that answer
 * {@code indexed_literal} queries should too, so that their answers equal the scanner's.
 *
 * <p><b>Matching.</b> The query is a plain substring, never a regular expression ({@code (a+)+$} is
 * searched verbatim). Case-sensitive matching compares UTF-16 units. Case-insensitive matching (the
 * default of a search request) lower-cases the query and the line with {@link Locale#ROOT} (full
 * case mapping, as JavaScript's {@code toLowerCase}) and compares those. A line matches at most once:
 * {@link #column(String)} is the 1-based UTF-16 column of the <em>first</em> occurrence, measured in
 * the original line even when lower-casing changed its length (U+0130 'İ' lower-cases to two units).
 *
 * <p><b>Lines.</b> {@link #forEachLine} splits bytes on LF only; a CR right before an LF, and a CR at
 * the very end of the content, are not part of the line (the reference keeps that final CR; we treat
 * it like the CR of CRLF); any other CR is content. A trailing LF does not create an extra empty
 * line; empty content has no lines. Lines are numbered from 1. The literal scanner searches every
 * line, however long ({@link #forEachLine(byte[], LineVisitor)}); only the text it reports of a
 * long line is bounded ({@link #window}). The older {@link #forEachLine(byte[], int, LineVisitor)}
 * skips a line longer than {@code maxLineBytes} UTF-8 bytes (terminator excluded): it is numbered
 * and reported with {@code null} text, but never matched. Line bytes are decoded as UTF-8 with each maximal
 * malformed subsequence replaced by U+FFFD (the WHATWG rule JavaScript uses); a byte-order mark is
 * kept as U+FEFF.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class LiteralPattern {

  /**
   * Receives the lines of {@link #forEachLine}.
   */
  @FunctionalInterface
  public interface LineVisitor {
    /**
     * Visits one line.
     *
     * @param line the 1-based line number
     * @param text the decoded line without its terminator, or {@code null} when the line exceeds
     *     {@code maxLineBytes} and is skipped
     * @param bytes the line's length in bytes, terminator (LF and a stripped CR) excluded
     * @return {@code false} to stop visiting
     */
    boolean visit(int line, @Nullable String text, long bytes);
  }

  /**
   * The first matching line of some content.
   *
   * @param line 1-based line number
   * @param column 1-based UTF-16 column of the first occurrence in {@code text}
   * @param text the whole decoded line
   */
  public record LineMatch(int line, int column, String text) {
    public LineMatch {
      Objects.requireNonNull(text, "text");
    }
  }

  private final String query;
  private final boolean caseSensitive;
  private final String needle;

  /**
   * The needle as bytes a matching line's bytes must hold ({@link #forEachCandidateLine}): its
   * UTF-8, ASCII lower case when {@link #fold}; null when no byte search is a safe filter (a
   * case-insensitive needle that is not ASCII, or one holding U+FFFD or a lone surrogate, which
   * decoding can make of other bytes).
   */
  private final byte @Nullable [] needleBytes;
  /** Whether {@link #needleBytes} is compared with the content's ASCII letters lower-cased. */
  private final boolean fold;
  /**
   * Whether content holding U+0130 or U+212A is searched line by line all the same: the only
   * non-ASCII characters whose lower case holds an ASCII letter ('i', 'k'), which the needle has.
   */
  private final boolean foldSpecials;

  private LiteralPattern(String query, boolean caseSensitive) {
    this.query = query;
    this.caseSensitive = caseSensitive;
    this.needle = caseSensitive ? query : query.toLowerCase(Locale.ROOT);
    boolean ascii = needle.chars().allMatch(c -> c < 0x80);
    if (caseSensitive && wellFormed(needle)) {
      needleBytes = needle.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    } else if (!caseSensitive && ascii) {
      needleBytes = needle.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    } else {
      needleBytes = null;
    }
    this.fold = !caseSensitive;
    this.foldSpecials = fold && (needle.indexOf('i') >= 0 || needle.indexOf('k') >= 0);
  }

  /** Whether {@code s} has no lone surrogate and no U+FFFD. */
  private static boolean wellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\uFFFD' || Character.isLowSurrogate(c)) {
        return false;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      }
    }
    return true;
  }

  /**
   * Compiles a literal query.
   *
   * @param query the substring to find
   * @param caseSensitive whether case must match
   * @param maxPatternBytes the largest accepted UTF-8 length of {@code query} (1..4 096)
   * @throws RepositoryException {@code "query must be non-empty"} or
   *     {@code "query exceeds <maxPatternBytes> byte pattern limit"}
   * @throws IllegalArgumentException when {@code maxPatternBytes} is outside 1..4 096
   */
  public static LiteralPattern compile(String query, boolean caseSensitive, int maxPatternBytes) {
    Objects.requireNonNull(query, "query");
    CodingLimits.requirePositive(
        "maxPatternBytes", maxPatternBytes, RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    long bytes = Utf8.byteLength(query);
    if (bytes < 1) {
      throw new RepositoryException("query must be non-empty");
    }
    if (bytes > maxPatternBytes) {
      throw new RepositoryException("query exceeds " + maxPatternBytes + " byte pattern limit");
    }
    return new LiteralPattern(query, caseSensitive);
  }

  /** The query as given. */
  public String query() {
    return query;
  }

  /** Whether case must match. */
  public boolean caseSensitive() {
    return caseSensitive;
  }

  /**
   * The 1-based UTF-16 column of the first occurrence of the query in {@code line}, measured in the
   * original line, or 0 when the line does not match.
   */
  public int column(String line) {
    if (caseSensitive) {
      return line.indexOf(needle) + 1;
    }
    String lowered = line.toLowerCase(Locale.ROOT);
    int index = lowered.indexOf(needle);
    if (index < 0) {
      return 0;
    }
    if (lowered.length() == line.length()) {
      // Only U+0130 changes length under Locale.ROOT lower-casing, so equal lengths map 1:1.
      return index + 1;
    }
    return originalIndex(line, index) + 1;
  }

  /**
   * The 1-based UTF-16 column just past the first occurrence of the query in {@code line}
   * (measured in the original line, as {@link #column}), or 0 when the line does not match.
   */
  public int endColumn(String line) {
    if (caseSensitive) {
      int index = line.indexOf(needle);
      return index < 0 ? 0 : index + needle.length() + 1;
    }
    String lowered = line.toLowerCase(Locale.ROOT);
    int index = lowered.indexOf(needle);
    if (index < 0) {
      return 0;
    }
    int loweredEnd = index + needle.length();
    if (lowered.length() == line.length()) {
      return loweredEnd + 1;
    }
    int last = originalIndex(line, loweredEnd - 1);
    return last + Character.charCount(line.codePointAt(last)) + 1;
  }

  /** Maps an index in {@code line.toLowerCase(Locale.ROOT)} back to the code point it came from. */
  private static int originalIndex(String line, int loweredIndex) {
    int lowered = 0;
    int i = 0;
    while (i < line.length()) {
      int codePoint = line.codePointAt(i);
      int units = Character.charCount(codePoint);
      int loweredUnits =
          codePoint < 0x80 ? 1 : line.substring(i, i + units).toLowerCase(Locale.ROOT).length();
      if (loweredIndex < lowered + loweredUnits) {
        return i;
      }
      lowered += loweredUnits;
      i += units;
    }
    return line.length();
  }

  /**
   * Splits {@code content} into lines with the scanner's rules (see the class documentation) and
   * passes each, whatever its length, to {@code visitor} (the text is never {@code null}) until it
   * returns {@code false}. This is how the literal scanner reads a file.
   */
  public static void forEachLine(byte[] content, LineVisitor visitor) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(visitor, "visitor");
    LineSplitter splitter = new LineSplitter(LineSplitter.UNBOUNDED, visitor);
    if (splitter.feed(content, 0, content.length)) {
      splitter.finish();
    }
  }

  /**
   * Visits, in order and with the numbers and text {@link #forEachLine(byte[], LineVisitor)} gives
   * them, the lines of {@code content} that may hold the query (a superset of the matching lines:
   * the visitor still tests each with {@link #column}), until the visitor returns {@code false}.
   * Where the query's bytes can be searched for (a case-sensitive query; a case-insensitive ASCII
   * one, ASCII letters compared in lower case), only lines holding them are decoded; otherwise
   * every line is visited. A valid UTF-8 sequence always decodes to itself (an ill-formed
   * subsequence never takes an ASCII or lead byte), so no matching line is left out.
   */
  public void forEachCandidateLine(byte[] content, LineVisitor visitor) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(visitor, "visitor");
    if (needleBytes == null || foldSpecials && hasFoldSpecial(content)) {
      forEachLine(content, visitor);
      return;
    }
    int n = content.length;
    int lineNo = 1;
    int lineStart = 0;
    int from = 0;
    while (from < n) {
      int p = indexOf(content, from);
      if (p < 0) {
        return;
      }
      for (int i = from; i < p; i++) {
        if (content[i] == '\n') {
          lineNo++;
          lineStart = i + 1;
        }
      }
      int lineEnd = p;
      while (lineEnd < n && content[lineEnd] != '\n') {
        lineEnd++;
      }
      // A needle holding an LF matches no line (the visitor finds no column) and is not special.
      int len = lineEnd - lineStart;
      if (len > 0 && content[lineEnd - 1] == '\r') {
        len--; // the CR of CRLF, or one at the very end of the content
      }
      if (!visitor.visit(lineNo, Utf8Decoder.decode(content, lineStart, len), len)) {
        return;
      }
      lineNo++;
      lineStart = lineEnd + 1;
      from = lineEnd + 1;
    }
  }

  /** The first index at or after {@code from} where {@link #needleBytes} occurs, or -1. */
  private int indexOf(byte[] content, int from) {
    byte[] nb = needleBytes;
    int m = nb.length;
    int last = content.length - m;
    byte first = nb[0];
    if (!fold) {
      outer:
      for (int i = from; i <= last; i++) {
        if (content[i] != first) {
          continue;
        }
        for (int j = 1; j < m; j++) {
          if (content[i + j] != nb[j]) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }
    outer:
    for (int i = from; i <= last; i++) {
      if (lower(content[i]) != first) {
        continue;
      }
      for (int j = 1; j < m; j++) {
        if (lower(content[i + j]) != nb[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static byte lower(byte b) {
    return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
  }

  /** Whether {@code content} holds U+0130 (C4 B0) or U+212A (E2 84 AA) in UTF-8. */
  private static boolean hasFoldSpecial(byte[] content) {
    for (int i = 0; i + 1 < content.length; i++) {
      if (content[i] == (byte) 0xC4 && content[i + 1] == (byte) 0xB0
          || content[i] == (byte) 0xE2 && content[i + 1] == (byte) 0x84
          && i + 2 < content.length && content[i + 2] == (byte) 0xAA) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first line of {@code content} that matches, searching every line however long (as the
   * scanner does); empty when no line matches. The match's text is the whole line.
   */
  public Optional<LineMatch> firstMatch(byte[] content) {
    LineMatch[] found = new LineMatch[1];
    forEachLine(content, (line, text, bytes) -> {
      int column = column(text);
      if (column > 0) {
        found[0] = new LineMatch(line, column, text);
        return false;
      }
      return true;
    });
    return Optional.ofNullable(found[0]);
  }

  /**
   * The UTF-16 index in {@code line} at which {@link #window} starts: 0 when the line is at most
   * {@code maxBytes} UTF-8 bytes long, else {@code maxBytes / 4} units before the match (never
   * before 0, never inside a surrogate pair).
   *
   * @param column the 1-based column of the match in {@code line}
   */
  public static int windowStart(String line, int column, int maxBytes) {
    if (fits(line, maxBytes)) {
      return 0;
    }
    int start = Math.max(0, Math.min(line.length(), column - 1 - maxBytes / 4));
    if (start > 0 && Character.isLowSurrogate(line.charAt(start))
        && Character.isHighSurrogate(line.charAt(start - 1))) {
      start--;
    }
    return start;
  }

  private static boolean fits(String line, int maxBytes) {
    // A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair: 4 for 2 units).
    return (long) line.length() * 3 <= maxBytes || Utf8.byteLength(line) <= maxBytes;
  }

  /**
   * The text a result reports for a matching line: the whole line when it is at most
   * {@code maxBytes} UTF-8 bytes long; else the part of it from {@link #windowStart} cut to
   * {@code maxBytes} bytes on a code-point boundary (the match begins inside it whenever
   * {@code maxBytes} is at least 32). The match's column stays the column in the whole line.
   *
   * @param column the 1-based column of the match in {@code line} (0: cut from the start)
   */
  public static String window(String line, int column, int maxBytes) {
    int start = windowStart(line, column, maxBytes);
    if (start == 0 && fits(line, maxBytes)) {
      return line;
    }
    return Utf8.truncateToBytes(line.substring(start), maxBytes);
  }

  /**
   * Splits {@code content} into lines with the scanner's rules (see the class documentation) and
   * passes each to {@code visitor} until it returns {@code false}, skipping long lines.
   *
   * @param maxLineBytes longer lines are skipped (1..1 048 576)
   * @throws IllegalArgumentException when {@code maxLineBytes} is outside 1..1 048 576
   */
  public static void forEachLine(byte[] content, int maxLineBytes, LineVisitor visitor) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(visitor, "visitor");
    CodingLimits.requirePositive(
        "maxLineBytes", maxLineBytes, RepositoryLimits.HARD_MAX_SEARCH_LINE_BYTES);
    LineSplitter splitter = new LineSplitter(maxLineBytes, visitor);
    if (splitter.feed(content, 0, content.length)) {
      splitter.finish();
    }
  }

  @Override
  public String toString() {
    return "LiteralPattern[" + (caseSensitive ? "case-sensitive" : "case-insensitive") + "]";
  }
}
