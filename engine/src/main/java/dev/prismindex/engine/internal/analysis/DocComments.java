package dev.prismindex.engine.internal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of the doc comments in a piece of source (a chunk), by simple line rules per language:
 *
 * <ul>
 *   <li>{@code /** ... *}{@code /} blocks (Java, JavaScript, TypeScript, Rust, C, C++, C#, Kotlin,
 *       Scala, Swift, PHP, Groovy); Rust also {@code /*! ... *}{@code /};</li>
 *   <li>{@code ///} lines (Rust, C, C++, C#, Swift) and {@code //!} lines (Rust);</li>
 *   <li>Go: a run of {@code //} lines directly above a {@code func}, {@code type}, {@code var},
 *       {@code const} or {@code package} line;</li>
 *   <li>Python: docstrings (a triple-quoted string opening the chunk or following a line that ends
 *       with {@code :}) and a run of {@code #} lines directly above a {@code def}, {@code class} or
 *       decorator line; Ruby: {@code #} lines directly above {@code def}, {@code class} or
 *       {@code module}; shell: {@code #} lines directly above a function.</li>
 * </ul>
 *
 * <p>Comment markers, leading {@code *}, HTML tags and doc-tag names ({@code @param},
 * {@code {@code ...}} keeps its content) are removed; fenced code blocks and Python doctest lines
 * are left out (examples are code, not description). Other languages have no doc comments here.
 * Never fails for any input.
 */
public final class DocComments {

  private static final Set<String> JAVADOC = Set.of("java", "javascript", "typescript", "tsx",
      "rust", "c", "cpp", "csharp", "kotlin", "scala", "swift", "php", "groovy");
  private static final Set<String> TRIPLE_SLASH = Set.of("rust", "c", "cpp", "csharp", "swift");

  private static final Pattern GO_DECL = Pattern.compile("^(func|type|var|const|package)\\b.*");
  private static final Pattern PY_DEF =
      Pattern.compile("^(async\\s+def|def|class)\\b.*|^@.*");
  private static final Pattern RUBY_DEF = Pattern.compile("^(def|class|module)\\b.*");
  private static final Pattern SHELL_FUNCTION =
      Pattern.compile("^(function\\s+[\\w.:-]+.*|[\\w.:-]+\\s*\\(\\s*\\)\\s*\\{?.*)");
  private static final Pattern PY_DOCSTRING_OPEN =
      Pattern.compile("^[rRuUbBfF]{0,2}(\"\"\"|''')");
  private static final Pattern TAG = Pattern.compile("\\{?@[A-Za-z][\\w.-]*");
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern HTML = Pattern.compile("</?[A-Za-z][^<>]{0,200}>");

  private DocComments() {}

  /** The doc-comment text of {@code text} (lines joined with {@code \n}), or empty. */
  public static String extract(String text, String language) {
    List<String> lines = List.of(text.split("\r?\n|\r", -1));
    List<String> out = new ArrayList<>();
    if (JAVADOC.contains(language)) {
      blocks(lines, language.equals("rust"), out);
    }
    if (TRIPLE_SLASH.contains(language)) {
      slashes(lines, language.equals("rust"), out);
    }
    switch (language) {
      case "go" -> linesAbove(lines, "//", GO_DECL, out);
      case "python" -> {
        docstrings(lines, out);
        linesAbove(lines, "#", PY_DEF, out);
      }
      case "ruby" -> linesAbove(lines, "#", RUBY_DEF, out);
      case "shell" -> linesAbove(lines, "#", SHELL_FUNCTION, out);
      default -> { }
    }
    return clean(out);
  }

  /** {@code /** ... *}{@code /} (and, for Rust, {@code /*! ... *}{@code /}) blocks. */
  private static void blocks(List<String> lines, boolean rust, List<String> out) {
    boolean inside = false;
    for (String line : lines) {
      String s = line.strip();
      if (!inside) {
        int open = s.indexOf("/**");
        int bang = rust ? s.indexOf("/*!") : -1;
        if (open >= 0 && !s.startsWith("/**/", open) && (bang < 0 || open < bang)) {
          s = s.substring(open + 3);
        } else if (bang >= 0) {
          s = s.substring(bang + 3);
        } else {
          continue;
        }
        inside = true;
      } else if (s.startsWith("*") && !s.startsWith("*/")) {
        s = s.substring(1);
      }
      int close = s.indexOf("*/");
      if (close >= 0) {
        s = s.substring(0, close);
        inside = false;
      }
      out.add(s.strip());
    }
  }

  /** {@code ///} lines (not {@code ////}), and for Rust {@code //!} lines. */
  private static void slashes(List<String> lines, boolean rust, List<String> out) {
    for (String line : lines) {
      String s = line.strip();
      if (s.startsWith("///") && !s.startsWith("////")) {
        out.add(s.substring(3).strip());
      } else if (rust && s.startsWith("//!")) {
        out.add(s.substring(3).strip());
      }
    }
  }

  /** Runs of {@code marker} comment lines directly above a line matching {@code decl}. */
  private static void linesAbove(List<String> lines, String marker, Pattern decl,
      List<String> out) {
    for (int i = 0; i < lines.size(); i++) {
      if (!decl.matcher(lines.get(i).strip()).matches() || isComment(lines.get(i), marker)) {
        continue;
      }
      int first = i;
      while (first > 0 && isComment(lines.get(first - 1), marker)) {
        first--;
      }
      for (int j = first; j < i; j++) {
        String s = lines.get(j).strip().substring(marker.length());
        if (!s.startsWith("!")) { // #! shebang, //! is not Go
          out.add(s.strip());
        }
      }
    }
  }

  private static boolean isComment(String line, String marker) {
    return line.strip().startsWith(marker);
  }

  /** Python docstrings: a triple-quoted string first in the chunk or after a line ending in ':'. */
  private static void docstrings(List<String> lines, List<String> out) {
    String previous = null; // the last non-blank, non-comment line
    for (int i = 0; i < lines.size(); i++) {
      String s = lines.get(i).strip();
      if (s.isEmpty() || s.startsWith("#")) {
        continue;
      }
      Matcher open = PY_DOCSTRING_OPEN.matcher(s);
      if (open.find() && (previous == null || previous.endsWith(":"))) {
        String quote = open.group(1);
        String rest = s.substring(open.end());
        int close = rest.indexOf(quote);
        if (close >= 0) {
          out.add(rest.substring(0, close).strip());
          previous = s;
          continue;
        }
        out.add(rest.strip());
        int j = i + 1;
        for (; j < lines.size(); j++) {
          String t = lines.get(j).strip();
          int end = t.indexOf(quote);
          if (end >= 0) {
            out.add(t.substring(0, end).strip());
            break;
          }
          out.add(t);
        }
        i = j;
        previous = quote;
        continue;
      }
      previous = s;
    }
  }

  /** Drops examples (fenced blocks, doctest lines), HTML tags and tag names; joins the lines. */
  private static String clean(List<String> raw) {
    StringBuilder sb = new StringBuilder();
    boolean fenced = false;
    for (String line : raw) {
      if (line.startsWith("```") || line.startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      if (fenced || line.startsWith(">>>") || line.startsWith("...")) {
        continue;
      }
      String s = HTML.matcher(line).replaceAll(" ");
      s = SPACES.matcher(TAG.matcher(s).replaceAll(" ").replace("}", " ")).replaceAll(" ")
          .strip();
      if (!s.isEmpty()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(s);
      }
    }
    return sb.toString();
  }
}
