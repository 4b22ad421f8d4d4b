package dev.prismindex.benchmarks.quality;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The first sentence of a doc comment, CodeSearchNet style: the query a natural-language set asks
 * with. Comment markers are stripped (Javadoc/JSDoc {@code /** *}{@code /} and leading asterisks,
 * Go {@code //}, rustdoc {@code ///}, Python docstring quotes); the first paragraph is kept (up to
 * a blank line, a block tag such as {@code @param}, a markdown heading or code fence, a
 * {@code >>>} example); markup is reduced to its text (Javadoc inline tags, HTML, markdown code
 * spans and links, reStructuredText roles, a leading {@code [Tag]}); the sentence ends at the first
 * period followed by white space or the end. A leading word equal to the definition's name (Go's
 * "Foo returns ...") is dropped, so the query does not hold the identifier.
 */
final class DocSentence {

  private static final Pattern CODE_TAG =
      Pattern.compile("\\{@(?:code|literal|value)\\s*([^{}]*)\\}");
  private static final Pattern LINK_TAG = Pattern.compile(
      "\\{@link(?:plain)?\\s+([^\\s{}(]+(?:\\([^)]*\\))?)(?:\\s+([^{}]*))?\\}");
  private static final Pattern OTHER_TAG = Pattern.compile("\\{@[^{}]*\\}");
  private static final Pattern HTML = Pattern.compile("<[^>\\s][^>]*>");
  private static final Pattern RST_ROLE = Pattern.compile(":[a-z:]+:`([^`]*)`");
  private static final Pattern MD_LINK = Pattern.compile("\\[([^\\]\\[]+)\\](?:\\([^)]*\\)|\\[[^\\]]*\\])?");
  private static final Pattern LEADING_TAG = Pattern.compile("^\\[[A-Za-z][\\w -]*\\]\\s*");
  private static final Pattern EMPHASIS = Pattern.compile("(\\*{1,2}|__)(\\S[^*]*?)\\1");
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern SPACE_BEFORE_PUNCTUATION = Pattern.compile(" ([,;:.)])");
  private static final Pattern WORD = Pattern.compile("\\p{L}+");

  private DocSentence() {}

  /**
   * The query sentence of {@code doc} (a raw doc comment or docstring of {@code language}) for
   * the definition {@code name}, or null when it has none or inherits it.
   */
  static @Nullable String first(Language language, String doc, String name) {
    if (doc.contains("{@inheritDoc}")) {
      return null;
    }
    List<String> lines = switch (language) {
      case JAVA, TYPESCRIPT, TSX, JAVASCRIPT -> blockLines(doc);
      case GO -> lineComments(doc, "//");
      case RUST -> doc.startsWith("/**") ? blockLines(doc) : lineComments(doc, "///");
      case PYTHON -> docstringLines(doc);
    };
    if (lines == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (String line : lines) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("@") || l.startsWith("#") || l.startsWith("```")
          || l.startsWith(">>>")) {
        if (sb.length() > 0 || !l.isEmpty()) {
          break;
        }
        continue;
      }
      sb.append(l).append(' ');
    }
    String s = clean(sb.toString());
    int end = -1;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '.' && (i + 1 == s.length() || s.charAt(i + 1) == ' ')) {
        end = i;
        break;
      }
    }
    if (end >= 0) {
      s = s.substring(0, end);
    }
    s = dropName(s.strip(), name);
    return s.isEmpty() ? null : s;
  }

  /** {@code s} without a leading word that is {@code name} (also as {@code name()} or quoted). */
  static String dropName(String s, String name) {
    int space = s.indexOf(' ');
    String head = space < 0 ? s : s.substring(0, space);
    String bare = head.replaceAll("^[\"'`]+|[\"'`,:;]+$", "").replaceAll("\\(\\)$", "");
    return bare.equals(name) ? (space < 0 ? "" : s.substring(space + 1).strip()) : s;
  }

  /** The text lines of a {@code /** ... *}{@code /} comment, markers and asterisks removed. */
  private static @Nullable List<String> blockLines(String c) {
    if (!c.startsWith("/**") || !c.endsWith("*/") || c.length() < 5) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (String line : c.substring(3, c.length() - 2).split("\\R", -1)) {
      String l = line.strip();
      while (l.startsWith("*")) {
        l = l.substring(1);
      }
      out.add(l);
    }
    return out;
  }

  private static List<String> lineComments(String c, String marker) {
    List<String> out = new ArrayList<>();
    for (String line : c.split("\\R")) {
      String l = line.strip();
      out.add(l.startsWith(marker) ? l.substring(marker.length()) : l);
    }
    return out;
  }

  private static @Nullable List<String> docstringLines(String s) {
    String t = s.strip();
    int i = 0;
    while (i < t.length() && "rRuUbBfF".indexOf(t.charAt(i)) >= 0) {
      i++;
    }
    t = t.substring(i);
    for (String q : List.of("\"\"\"", "'''", "\"", "'")) {
      if (t.length() >= 2 * q.length() && t.startsWith(q) && t.endsWith(q)) {
        return List.of(t.substring(q.length(), t.length() - q.length()).split("\\R", -1));
      }
    }
    return null;
  }

  private static String clean(String text) {
    String s = text;
    s = replaceAll(CODE_TAG, s, m -> m.group(1).strip());
    s = replaceAll(LINK_TAG, s, m -> m.group(2) != null && !m.group(2).isBlank()
        ? m.group(2).strip() : linkTarget(m.group(1)));
    s = OTHER_TAG.matcher(s).replaceAll(" ");
    s = HTML.matcher(s).replaceAll(" ");
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&nbsp;", " ").replace("&#64;", "@").replace("&amp;", "&");
    s = replaceAll(RST_ROLE, s, m -> m.group(1));
    s = s.replace("`", "");
    s = SPACES.matcher(s).replaceAll(" ").strip();
    s = LEADING_TAG.matcher(s).replaceFirst("");
    s = replaceAll(MD_LINK, s, m -> m.group(1));
    s = replaceAll(EMPHASIS, s, m -> m.group(2));
    return SPACE_BEFORE_PUNCTUATION.matcher(s).replaceAll("$1").strip();
  }

  /**
   * {@code text} (a whole source file, say) with the markup {@link #first} reduces in a sentence
   * reduced the same way (inline tags, HTML, entities, reStructuredText roles, markdown links),
   * every line break kept, so that its words are the words a query sentence has.
   */
  static String reduceMarkup(String text) {
    String s = text;
    s = replaceKeepingLines(CODE_TAG, s, m -> m.group(1).strip());
    s = replaceKeepingLines(LINK_TAG, s, m -> m.group(2) != null && !m.group(2).isBlank()
        ? m.group(2).strip() : linkTarget(m.group(1)));
    s = replaceKeepingLines(OTHER_TAG, s, m -> " ");
    s = replaceKeepingLines(HTML, s, m -> " ");
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&nbsp;", " ").replace("&#64;", "@").replace("&amp;", "&");
    s = replaceKeepingLines(RST_ROLE, s, m -> m.group(1));
    return replaceKeepingLines(MD_LINK, s, m -> m.group(1));
  }

  private static String replaceKeepingLines(Pattern p, String s, Function<Matcher, String> f) {
    return replaceAll(p, s, m -> {
      String r = f.apply(m);
      long lost = m.group().chars().filter(c -> c == '\n').count()
          - r.chars().filter(c -> c == '\n').count();
      return lost > 0 ? r + " " + "\n".repeat((int) lost) : r;
    });
  }

  private static String linkTarget(String target) {
    String t = target;
    int paren = t.indexOf('(');
    if (paren >= 0) {
      t = t.substring(0, paren);
    }
    int hash = t.indexOf('#');
    if (hash >= 0) {
      t = t.substring(hash + 1).isEmpty() ? t.substring(0, hash) : t.substring(hash + 1);
    }
    int dot = t.lastIndexOf('.');
    return dot >= 0 ? t.substring(dot + 1) : t;
  }

  private static String replaceAll(Pattern p, String s, Function<Matcher, String> f) {
    Matcher m = p.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(f.apply(m)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The number of words (runs of letters) of {@code s}. */
  static int words(String s) {
    int n = 0;
    Matcher m = WORD.matcher(s);
    while (m.find()) {
      n++;
    }
    return n;
  }
}
