package dev.prismindex.repository;

import dev.prismindex.internal.Utf8;
import dev.prismindex.internal.regex.CodePointSet;
import dev.prismindex.internal.regex.Node;
import dev.prismindex.internal.regex.Prefilter;
import dev.prismindex.internal.regex.Program;
import dev.prismindex.internal.regex.RegexMatcher;
import dev.prismindex.internal.regex.RegexParser;
import dev.prismindex.internal.regex.RegexSyntaxException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The regular-expression search semantics, in one place, as {@link LiteralPattern} is for
 * substrings: the core scanner and the engine's index-served regex search both match with it, so
 * their answers are the same, and both equal ripgrep's on the same files.
 *
 * <p><b>Syntax.</b> RE2's, as ripgrep (Rust's {@code regex} crate) spells it; see
 * {@code docs/cli.md}. Unicode-aware ({@code \w}, {@code \d}, {@code \s}, {@code \b} follow
 * Unicode, {@code (?i)} uses simple case folding), matched in time linear in the text whatever the
 * pattern.
 *
 * <p><b>Lines.</b> {@link #forEachLine} splits bytes as ripgrep and grep do: at LF only, a CR being
 * an ordinary character (so {@code foo$} does not match {@code foo} at the end of a CRLF line, and
 * {@code \s+$} does; the literal scanner drops that CR, which no substring query can tell). Lines
 * are numbered as the literal scanner numbers them. UTF-8 is decoded with each maximal ill-formed
 * subsequence marked by {@link #NOT_UTF8}, which no class matches (ripgrep never matches bytes
 * that are not UTF-8 with {@code .} or a class either); {@link #readable} turns the marks into
 * U+FFFD for output, so a line reads as the literal scanner's, and columns count a mark as one
 * UTF-16 unit, as the literal scanner counts its U+FFFD. A pattern is matched against each line on
 * its own: {@code ^} and {@code $} are the line's ends, and no class or {@code .} matches LF.
 *
 * <p><b>Matches.</b> Leftmost-first (the first alternative that matches wins). {@link
 * Matcher#find} finds one; the matches of a line, as ripgrep lists them, are found by searching
 * again from the end of the last one (one code point further after an empty match, and never an
 * empty match right where the last one ended). With {@code wholeWords} a match must have a non-word
 * character or a line end on both sides, ripgrep's {@code -w} exactly.
 *
 * <p>Instances are immutable and thread-safe; a {@link Matcher} is not.
 */
public final class RegexPattern {

  /** How letter case is matched. */
  public enum CaseMode {
    /** Case must match ({@code rg} without flags). */
    SENSITIVE,
    /** Case is ignored, by simple case folding ({@code rg -i}). */
    INSENSITIVE,
    /**
     * Case is ignored when the pattern has a literal character and none of them is upper case,
     * else it must match ({@code rg -S}).
     */
    SMART
  }

  /**
   * How a line marks a maximal ill-formed UTF-8 subsequence for matching: a lone surrogate, which
   * valid UTF-8 never decodes to and no class holds.
   */
  public static final char NOT_UTF8 = '\uDFFF';

  private final String pattern;
  private final boolean caseInsensitive;
  private final boolean wholeWords;
  private final Program program;
  private final @Nullable Prefilter prefilter;
  /** The classes of a match's second, third... code points ({@link Prefilter#startSequence}). */
  private final CodePointSet[] then;
  /** The strings of a pattern that is only strings ({@link #strings}), or null. */
  private final String @Nullable [] strings;

  private RegexPattern(String pattern, boolean caseInsensitive, boolean wholeWords,
      Program program, @Nullable Prefilter prefilter, List<CodePointSet> sequence,
      String @Nullable [] strings) {
    this.pattern = pattern;
    this.caseInsensitive = caseInsensitive;
    this.wholeWords = wholeWords;
    this.program = program;
    this.prefilter = prefilter;
    this.then = sequence.size() < 2 ? new CodePointSet[0]
        : sequence.subList(1, sequence.size()).toArray(new CodePointSet[0]);
    this.strings = strings;
  }

  /**
   * The alternatives of a pattern that is only strings ({@code return}, {@code onNext|onError}),
   * in the pattern's order: each a non-empty run of single characters of the Basic Multilingual
   * Plane, no surrogate (so never a {@link #NOT_UTF8} mark); null for any other pattern.
   */
  private static String @Nullable [] strings(Node tree) {
    List<Node> branches = tree instanceof Node.Alternate a ? a.items() : List.of(tree);
    String[] out = new String[branches.size()];
    for (int i = 0; i < out.length; i++) {
      Node b = branches.get(i);
      List<Node> items = b instanceof Node.Concat c ? c.items() : List.of(b);
      StringBuilder s = new StringBuilder(items.size());
      for (Node item : items) {
        int cp = item instanceof Node.Chars ch ? ch.set().single() : -1;
        if (cp < 0 || cp >= Character.MIN_SUPPLEMENTARY_CODE_POINT
            || Character.isSurrogate((char) cp)) {
          return null;
        }
        s.append((char) cp);
      }
      if (s.length() == 0) {
        return null;
      }
      out[i] = s.toString();
    }
    return out;
  }

  /**
   * Compiles a pattern.
   *
   * @param pattern the regular expression; several of ripgrep's {@code -e} patterns are joined
   *     with {@code |} first ({@link #anyOf})
   * @param caseMode how letter case is matched
   * @param wholeWords ripgrep's {@code -w}: only matches with a non-word character or a line end on
   *     both sides
   * @param maxPatternBytes the largest accepted UTF-8 length of {@code pattern} (1..4 096)
   * @throws RepositoryException {@code "query exceeds <maxPatternBytes> byte pattern limit"}, or
   *     {@code "regex parse error at offset N of \"...\": ..."} for a pattern that does not parse
   *     or asks for what a linear-time matcher cannot do (look-around, backreferences)
   * @throws IllegalArgumentException when {@code maxPatternBytes} is outside 1..4 096
   */
  public static RegexPattern compile(String pattern, CaseMode caseMode, boolean wholeWords,
      int maxPatternBytes) {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(caseMode, "caseMode");
    CodingLimits.requirePositive(
        "maxPatternBytes", maxPatternBytes, RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    if (Utf8.byteLength(pattern) > maxPatternBytes) {
      throw new RepositoryException("query exceeds " + maxPatternBytes + " byte pattern limit");
    }
    try {
      boolean insensitive = switch (caseMode) {
        case SENSITIVE -> false;
        case INSENSITIVE -> true;
        case SMART -> RegexParser.smartCaseInsensitive(pattern);
      };
      Node tree = RegexParser.parse(pattern, insensitive);
      Node matched = wholeWords ? wordWrapped(tree) : tree;
      Program program = Program.compile(matched, 0);
      return new RegexPattern(pattern, insensitive, wholeWords, program,
          Prefilter.of(tree, insensitive), Prefilter.startSequence(tree),
          wholeWords ? null : strings(tree));
    } catch (RegexSyntaxException e) {
      throw new RepositoryException(e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new RepositoryException("regex error: " + e.getMessage(), e);
    }
  }

  /**
   * ripgrep's {@code -w} (as ripgrep 14 defines it: {@code \b{start-half}PATTERN\b{end-half}}):
   * a match has no word character right before it nor right after it.
   */
  private static Node wordWrapped(Node tree) {
    return new Node.Concat(List.of(new Node.Assert(Node.Kind.NOT_AFTER_WORD), tree,
        new Node.Assert(Node.Kind.NOT_BEFORE_WORD)));
  }

  /**
   * The pattern matching any of {@code patterns}, as ripgrep joins its {@code -e} patterns: with
   * {@code |}, each {@linkplain #quote quoted} first when {@code fixedStrings} ({@code -F}).
   */
  public static String anyOf(List<String> patterns, boolean fixedStrings) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < patterns.size(); i++) {
      if (i > 0) {
        b.append('|');
      }
      b.append(fixedStrings ? quote(patterns.get(i)) : patterns.get(i));
    }
    return b.toString();
  }

  /** {@code literal} with every character that has a meaning in a pattern escaped. */
  public static String quote(String literal) {
    StringBuilder b = new StringBuilder(literal.length() + 8);
    for (int i = 0; i < literal.length(); i++) {
      char c = literal.charAt(i);
      if ("\\.+*?()|[]{}^$#&-~".indexOf(c) >= 0) {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /** The pattern as given. */
  public String pattern() {
    return pattern;
  }

  /** Whether case is ignored (the case mode resolved: smart case decided by the pattern). */
  public boolean caseInsensitive() {
    return caseInsensitive;
  }

  /** Whether matches must be whole words ({@code -w}). */
  public boolean wholeWords() {
    return wholeWords;
  }

  /** A matcher of this pattern: not thread-safe, so one per thread. */
  public Matcher matcher() {
    return new Matcher(new RegexMatcher(program), prefilter, then, strings);
  }

  /**
   * Splits {@code content} into lines with the scanner's rules and passes each, decoded for
   * matching (ill-formed UTF-8 marked with {@link #NOT_UTF8}; see the class documentation), to
   * {@code visitor} until it returns {@code false}.
   */
  public static void forEachLine(byte[] content, LiteralPattern.LineVisitor visitor) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(visitor, "visitor");
    LineSplitter splitter = new LineSplitter(LineSplitter.UNBOUNDED, NOT_UTF8, true, visitor);
    if (splitter.feed(content, 0, content.length)) {
      splitter.finish();
    }
  }

  /** {@code line} as output shows it: each {@link #NOT_UTF8} mark as U+FFFD. */
  public static String readable(String line) {
    return line.indexOf(NOT_UTF8) < 0 ? line : line.replace(NOT_UTF8, '\uFFFD');
  }

  @Override
  public String toString() {
    return "RegexPattern[" + (caseInsensitive ? "case-insensitive" : "case-sensitive")
        + (wholeWords ? ", whole words" : "") + "]";
  }

  /** Finds the matches of a {@link RegexPattern} in lines. Not thread-safe. */
  public static final class Matcher {

    /** Receives the matches of a line. */
    @FunctionalInterface
    public interface MatchVisitor {
      /**
       * One match, {@code [start, end)} in UTF-16 units of the line.
       *
       * @return {@code false} to stop
       */
      boolean match(int start, int end);
    }

    /** Receives the lines of a file that hold a match ({@link #forEachMatchingLine}). */
    @FunctionalInterface
    public interface LineVisitor {
      /**
       * One line with a match.
       *
       * @param lineNo the 1-based line number
       * @param line the line decoded for matching, its LF excluded (as {@link #forEachLine} gives
       *     it; {@link #readable} shows it)
       * @param spans the line's matches as {@code [start, end)} pairs of UTF-16 indices of
       *     {@code line}, an empty match only as the first, {@code count} values used
       * @return {@code false} to stop
       */
      boolean line(int lineNo, String line, int[] spans, int count);
    }

    private final RegexMatcher matcher;
    /** The search of a file's lines ({@link #forEachMatchingLine}), sharing {@link #matcher}. */
    private final RegexLines lines;

    private Matcher(RegexMatcher matcher, @Nullable Prefilter prefilter, CodePointSet[] then,
        String @Nullable [] strings) {
      this.matcher = matcher;
      this.lines = new RegexLines(matcher, prefilter, then, strings);
    }

    /**
     * Visits, in order, the lines of {@code content} (split and decoded as {@link #forEachLine}
     * does) that hold a match, with their matches as {@link #forEach} lists them. A line without
     * one of the pattern's required literals ({@link Prefilter}) is skipped without running the
     * matcher; a pattern without one whose matches start with code points of known classes is
     * looked for in the bytes, and only the lines where a run of those classes may start are
     * decoded and matched.
     */
    public void forEachMatchingLine(byte[] content, LineVisitor visitor) {
      forEachMatchingLine(content, content.length, visitor);
    }

    /**
     * {@link #forEachMatchingLine(byte[], LineVisitor)} of the first {@code length} bytes of
     * {@code content} (a buffer reused from file to file), which are not kept once it returns.
     */
    public void forEachMatchingLine(byte[] content, int length, LineVisitor visitor) {
      lines.forEachMatchingLine(content, length, visitor);
    }

    /**
     * Finds the first match in {@code line} starting at or after {@code from} (the text before
     * {@code from} still counts for {@code ^}, {@code \b} and {@code -w}).
     */
    public boolean find(String line, int from) {
      return matcher.find(line, from);
    }

    /** The start (a UTF-16 index) of the match {@link #find} found. */
    public int start() {
      return matcher.start();
    }

    /** The end (exclusive) of the match {@link #find} found. */
    public int end() {
      return matcher.end();
    }

    /**
     * Visits every match of {@code line}, as ripgrep lists them: each search starts where the last
     * match ended (one code point further after an empty one), and an empty match right at the end
     * of the last match is skipped.
     *
     * @return the number of matches visited
     */
    public int forEach(String line, MatchVisitor visitor) {
      return lines.forEachMatch(line, 0, line.length(), visitor);
    }
  }
}
