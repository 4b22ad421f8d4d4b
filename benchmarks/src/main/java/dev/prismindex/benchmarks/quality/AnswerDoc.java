package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * What the indexed copy of a corpus keeps of a natural-language answer's doc comment, the one
 * whose first sentence is the query: nothing (the quality benchmark's default, the CodeSearchNet
 * method), all of it ({@code --documented}: code that has its docs) or all but its first paragraph
 * ({@code --rest-of-doc}: code whose doc says more than the asker, but not the sentence).
 */
enum AnswerDoc {
  /** All of it. */
  KEPT("--documented", ".documented", " comment kept in the corpus (--documented)."),
  /** All but its first paragraph, which holds the sentence. */
  REST("--rest-of-doc", ".rest-of-doc",
      " comment's first paragraph blanked from the corpus, the rest of it kept (--rest-of-doc)."),
  /** Nothing. */
  BLANKED(null, null, " comment blanked from the corpus.");

  /** The option that asks for it; null for the default. */
  final @Nullable String option;
  /** The suffix of the file beside a prepared corpus that records it; null: none is written. */
  final @Nullable String marker;
  /** The end of the report's sentence on the queries. */
  final String described;

  AnswerDoc(@Nullable String option, @Nullable String marker, String described) {
    this.option = option;
    this.marker = marker;
    this.described = described;
  }

  /**
   * What each of {@code n} answers keeps of its doc: one draw u in [0, 1) per answer from a
   * generator of {@code seed}, in order; kept when u < {@code documented}, the rest when u <
   * {@code documented + rest}, else blanked. The same seed and documented share keep the same
   * answers' docs whatever the rest's share.
   */
  static List<AnswerDoc> draw(int n, double documented, double rest, long seed) {
    SplittableRandom draw = new SplittableRandom(seed);
    List<AnswerDoc> docs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double u = draw.nextDouble();
      docs.add(u < documented ? KEPT : u < documented + rest ? REST : BLANKED);
    }
    return docs;
  }

  /** Applies this to every answer's doc in the corpus copy under {@code root}. */
  void apply(Path root, List<NlQuery> answers) throws IOException {
    apply(root, answers, Collections.nCopies(answers.size(), this));
  }

  /**
   * Applies {@code docs.get(i)} to answer {@code i}'s doc in the corpus copy under {@code root},
   * each file read and written once; every line keeps its number.
   */
  static void apply(Path root, List<NlQuery> answers, List<AnswerDoc> docs) throws IOException {
    Map<String, List<Integer>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < answers.size(); i++) {
      if (docs.get(i) != KEPT) {
        byPath.computeIfAbsent(answers.get(i).target().path(), k -> new ArrayList<>()).add(i);
      }
    }
    for (Map.Entry<String, List<Integer>> e : byPath.entrySet()) {
      Path f = root.resolve(e.getKey());
      byte[] data = Files.readAllBytes(f);
      for (int i : e.getValue()) {
        List<Definition.Span> spans = answers.get(i).target().docSpans();
        if (docs.get(i) == REST) {
          blankFirstParagraph(data, spans);
        } else {
          for (Definition.Span s : spans) {
            CorpusFiles.blank(data, s.start(), s.end());
          }
        }
      }
      Files.write(f, data);
    }
  }

  /**
   * Blanks, in place, the text of the first paragraph of the doc comment whose byte ranges are
   * {@code spans} (in file order), and keeps the comment's markers and the rest of its text: the
   * sentence a query asks stays out of the corpus, while the doc's further paragraphs, tags and
   * examples stay, as in code whose doc says more than the asker. A paragraph ends at a line with
   * no text, a tag ({@code @param}, {@code :param}, a Javadoc {@code <p>}, a markdown heading) or
   * the comment's end; a new block comment or docstring (an overload's doc) starts another first
   * paragraph. Line numbers are kept ({@link CorpusFiles#blank}).
   */
  static void blankFirstParagraph(byte[] utf8, List<Definition.Span> spans) {
    boolean seen = false;
    boolean done = false;
    for (Definition.Span span : spans) {
      int i = span.start();
      while (i < span.end()) {
        int lineEnd = i;
        while (lineEnd < span.end() && utf8[lineEnd] != '\n') {
          lineEnd++;
        }
        int c = spaces(utf8, i, lineEnd);
        int marker = marker(utf8, c, lineEnd);
        if (marker > 0 && opensBlock(utf8, c)) {
          seen = false;
          done = false;
        }
        c = spaces(utf8, c + marker, lineEnd);
        int stop = closer(utf8, c, lineEnd);
        int text = stop;
        while (text > c && (utf8[text - 1] == ' ' || utf8[text - 1] == '\t'
            || utf8[text - 1] == '\r')) {
          text--;
        }
        boolean empty = c >= text;
        if (!done && seen && (empty || tag(utf8, c, text))) {
          done = true;
        }
        if (!done && !empty) {
          CorpusFiles.blank(utf8, c, text);
          seen = true;
        }
        if (stop < lineEnd && seen) {
          done = true; // the comment closes on this line
        }
        i = lineEnd + 1;
      }
    }
  }

  private static int spaces(byte[] b, int from, int end) {
    while (from < end && (b[from] == ' ' || b[from] == '\t')) {
      from++;
    }
    return from;
  }

  /** The comment marker's length at {@code at}: the longest of those a doc comment's line opens. */
  private static int marker(byte[] b, int at, int end) {
    for (String m : MARKERS) {
      if (startsWith(b, at, end, m)) {
        return m.length();
      }
    }
    return at < end && b[at] == '*' && !startsWith(b, at, end, "*/") ? 1 : 0;
  }

  /** The markers that open a doc comment's line, longest first (and a Javadoc line's star). */
  private static final List<String> MARKERS = List.of("r\"\"\"", "R\"\"\"", "\"\"\"", "\'\'\'",
      "/**", "/*!", "/*", "///", "//!", "//", "#");

  private static boolean opensBlock(byte[] b, int at) {
    return b[at] == '/' && b[at + 1] == '*' || b[at] == '"' || b[at] == '\'' || b[at] == 'r'
        || b[at] == 'R';
  }

  /** Where a line's text ends: before a comment's or docstring's closer, else at {@code end}. */
  private static int closer(byte[] b, int from, int end) {
    for (int i = from; i < end; i++) {
      if (startsWith(b, i, end, "*/") || startsWith(b, i, end, "\"\"\"")
          || startsWith(b, i, end, "\'\'\'")) {
        return i;
      }
    }
    return end;
  }

  /** Whether the text at {@code at} starts a tag, a new paragraph or a heading. */
  private static boolean tag(byte[] b, int at, int end) {
    return b[at] == '@' || b[at] == ':' || b[at] == '#' || startsWith(b, at, end, "<p")
        || startsWith(b, at, end, "<P") || startsWith(b, at, end, "Args:")
        || startsWith(b, at, end, "Returns:") || startsWith(b, at, end, "Parameters");
  }

  private static boolean startsWith(byte[] b, int at, int end, String s) {
    if (at + s.length() > end) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (b[at + k] != s.charAt(k)) {
        return false;
      }
    }
    return true;
  }
}
