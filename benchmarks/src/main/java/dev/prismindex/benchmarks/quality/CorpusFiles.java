package dev.prismindex.benchmarks.quality;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The files of a corpus: extraction from a JDK {@code src.zip}, the copy of a repository tree that
 * is indexed (and whose answers' doc comments are blanked), and its file list.
 */
final class CorpusFiles {

  private CorpusFiles() {}

  /**
   * Extracts the {@code .java} entries of {@code zip} selected by {@code selectors} into {@code
   * dir}: {@code prefix/*} takes the files directly in {@code prefix}, {@code prefix/**} the whole
   * subtree. Returns the number of files written.
   */
  static int extractZip(Path zip, List<String> selectors, Path dir) throws IOException {
    int n = 0;
    try (ZipFile z = new ZipFile(zip.toFile())) {
      Enumeration<? extends ZipEntry> entries = z.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        String name = e.getName();
        if (e.isDirectory() || !name.endsWith(".java") || !selected(name, selectors)) {
          continue;
        }
        Path out = dir.resolve(name).normalize();
        if (!out.startsWith(dir)) {
          throw new IOException("zip entry leaves the corpus directory: " + name);
        }
        Files.createDirectories(out.getParent());
        try (InputStream in = z.getInputStream(e)) {
          Files.copy(in, out);
        }
        n++;
      }
    }
    return n;
  }

  static boolean selected(String name, List<String> selectors) {
    for (String s : selectors) {
      if (s.endsWith("/**")) {
        if (name.startsWith(s.substring(0, s.length() - 2))) {
          return true;
        }
      } else if (s.endsWith("/*")) {
        String prefix = s.substring(0, s.length() - 1);
        if (name.startsWith(prefix) && name.indexOf('/', prefix.length()) < 0) {
          return true;
        }
      } else if (name.equals(s)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Copies every file below {@code from} into {@code dir} except version-control and index
   * directories ({@code .git}, {@code .hg}, {@code .svn}, {@code .prism-index}); symbolic links
   * are not followed. Returns the number of files written.
   */
  static int copyTree(Path from, Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(from)) {
      files = s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .filter(p -> !skipped(from.relativize(p))).sorted().toList();
    }
    for (Path p : files) {
      Path out = dir.resolve(from.relativize(p).toString());
      Files.createDirectories(out.getParent());
      Files.copy(p, out);
    }
    return files.size();
  }

  private static boolean skipped(Path relative) {
    for (Path part : relative) {
      String s = part.toString();
      if (s.equals(".git") || s.equals(".hg") || s.equals(".svn") || s.equals(".prism-index")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The files below {@code dir} outside dot-directories (the index's own among them),
   * corpus-relative with {@code /}, sorted.
   */
  static List<String> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.startsWith(".") && !p.contains("/."))
          .sorted().toList();
    }
  }

  /**
   * Blanks the bytes {@code [start, end)} of {@code utf8} in place: every byte except line
   * terminators becomes a space, so every line keeps its number (a multi-byte character becomes
   * several spaces).
   */
  static void blank(byte[] utf8, int start, int end) {
    for (int i = start; i < end; i++) {
      if (utf8[i] != '\n' && utf8[i] != '\r') {
        utf8[i] = ' ';
      }
    }
  }

  /**
   * Blanks, in place, the text of the first paragraph of the doc comment whose byte ranges are
   * {@code spans} (in file order), and keeps the comment's markers and the rest of its text: the
   * sentence a query asks stays out of the corpus, while the doc's further paragraphs, tags and
   * examples stay, as in code whose doc says more than the asker. A paragraph ends at a line with
   * no text, a tag ({@code @param}, {@code :param}, a Javadoc {@code <p>}, a markdown heading) or
   * the comment's end; a new block comment or docstring (an overload's doc) starts another first
   * paragraph. Line numbers are kept ({@link #blank}).
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
          blank(utf8, c, text);
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
