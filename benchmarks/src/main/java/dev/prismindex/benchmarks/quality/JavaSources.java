package dev.prismindex.benchmarks.quality;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.jspecify.annotations.Nullable;
import org.treesitter.TSLanguage;
import org.treesitter.TSNode;
import org.treesitter.TSParser;
import org.treesitter.TSQuery;
import org.treesitter.TSQueryCursor;
import org.treesitter.TSQueryMatch;
import org.treesitter.TSTree;
import org.treesitter.TreeSitterJava;

/**
 * Java sources of a corpus: extraction from a JDK {@code src.zip} or a checked-out repository, the
 * definitions tree-sitter finds in them (with their doc comments), and the CodeSearchNet-style
 * first-sentence and doc-comment blanking helpers.
 */
final class JavaSources {

  /** Definition kinds the navigation set draws from. */
  private static final List<String> DEFINITION_TYPES = List.of("method_declaration",
      "constructor_declaration", "class_declaration", "interface_declaration", "enum_declaration",
      "record_declaration", "annotation_type_declaration");

  private static final Pattern CODE_TAG =
      Pattern.compile("\\{@(?:code|literal|value)\\s*([^{}]*)\\}");
  private static final Pattern LINK_TAG =
      Pattern.compile(
      "\\{@link(?:plain)?\\s+([^\\s{}(]+(?:\\([^)]*\\))?)(?:\\s+([^{}]*))?\\}");
  private static final Pattern OTHER_TAG = Pattern.compile("\\{@[^{}]*\\}");
  private static final Pattern HTML = Pattern.compile("<[^>]*>");
  private static final Pattern SPACES = Pattern.compile("\\s+");
  private static final Pattern WORD = Pattern.compile("\\p{L}+");

  private JavaSources() {}

  /**
   * A definition found in a file.
   *
   * @param path corpus-relative path
   * @param type tree-sitter node type
   * @param name the simple name
   * @param nameLine 1-based line of the name
   * @param startLine 1-based first line of the declaration (annotations and modifiers included, doc
   *     comment excluded)
   * @param endLine 1-based last line
   * @param hasBody whether it is a method or constructor with a body
   * @param doc the doc comment directly before it, if any
   * @param docStartByte UTF-8 offset of the doc comment (-1 when none)
   * @param docEndByte UTF-8 end offset of the doc comment (-1 when none)
   */
  record Definition(String path, String type, String name, int nameLine, int startLine,
      int endLine, boolean hasBody, @Nullable String doc, int docStartByte, int docEndByte) {

    boolean isMethod() {
      return type.equals("method_declaration");
    }
  }

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

  /** Copies every {@code .java} file below {@code from} (skipping dot-directories) into {@code dir}. */
  static int copyTree(Path from, Path dir) throws IOException {
    int n = 0;
    List<Path> files;
    try (Stream<Path> s = Files.walk(from)) {
      files = s.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".java"))
          .filter(p -> {
            for (Path part : from.relativize(p)) {
              if (part.toString().startsWith(".")) {
                return false;
              }
            }
            return true;
          }).sorted().toList();
    }
    for (Path p : files) {
      Path out = dir.resolve(from.relativize(p).toString());
      Files.createDirectories(out.getParent());
      Files.copy(p, out);
      n++;
    }
    return n;
  }

  /** The {@code .java} files below {@code dir}, corpus-relative with {@code /}, sorted. */
  static List<String> javaFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".java"))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.startsWith("."))
          .sorted().toList();
    }
  }

  /** Parses every file and returns its definitions, in path then position order. */
  static List<Definition> definitions(Path dir, List<String> files) throws IOException {
    List<Definition> out = new ArrayList<>();
    TSLanguage java = new TreeSitterJava();
    StringBuilder q = new StringBuilder("[");
    for (String type : DEFINITION_TYPES) {
      if (java.symbolForName(type, true) != 0) {
        q.append('(').append(type).append(") ");
      }
    }
    TSParser parser = new TSParser();
    parser.setLanguage(java);
    try (TSQuery query = new TSQuery(java, q.append("] @def").toString())) {
      for (String path : files) {
        byte[] utf8 = Files.readAllBytes(dir.resolve(path));
        String text = new String(utf8, StandardCharsets.UTF_8);
        TSTree tree = parser.parseString(null, text);
        if (tree == null) {
          continue;
        }
        try (TSQueryCursor cursor = new TSQueryCursor()) {
          cursor.exec(query, tree.getRootNode());
          TSQueryMatch match = new TSQueryMatch();
          while (cursor.nextCapture(match)) {
            TSNode node = match.getCaptures()[match.getCaptureIndex()].getNode();
            Definition d = definition(path, node, utf8);
            if (d != null) {
              out.add(d);
            }
          }
        } finally {
          tree.close();
        }
      }
    } finally {
      parser.close();
    }
    return out;
  }

  private static @Nullable Definition definition(String path, TSNode node, byte[] utf8) {
    TSNode nameNode = node.getChildByFieldName("name");
    if (nameNode.isNull()) {
      return null;
    }
    String name = text(nameNode, utf8);
    String type = node.getType();
    boolean hasBody = (type.equals("method_declaration") || type.equals("constructor_declaration"))
        && !node.getChildByFieldName("body").isNull();
    String doc = null;
    int docStart = -1;
    int docEnd = -1;
    TSNode prev = node.getPrevNamedSibling();
    if (!prev.isNull() && prev.getType().equals("block_comment")) {
      String c = text(prev, utf8);
      if (c.startsWith("/**") && !c.equals("/**/")) {
        doc = c;
        docStart = prev.getStartByte();
        docEnd = prev.getEndByte();
      }
    }
    return new Definition(path, type, name, nameNode.getStartPoint().getRow() + 1,
        node.getStartPoint().getRow() + 1, node.getEndPoint().getRow() + 1, hasBody, doc,
        docStart, docEnd);
  }

  private static String text(TSNode node, byte[] utf8) {
    return new String(utf8, node.getStartByte(), node.getEndByte() - node.getStartByte(),
        StandardCharsets.UTF_8);
  }

  /**
   * The first sentence of a doc comment as Javadoc shows it, or null when it has none or inherits
   * it: comment markers and leading asterisks removed, text up to the first block tag, inline
   * {@code code}/{@code literal} tags replaced by their text, {@code link} tags by their label (or
   * the target's simple name), other inline tags and HTML tags removed, entities decoded, white
   * space collapsed; the sentence ends at the first period followed by white space (or the end).
   */
  static @Nullable String firstSentence(String comment) {
    if (!comment.startsWith("/**") || !comment.endsWith("*/") || comment.length() < 5) {
      return null;
    }
    if (comment.contains("{@inheritDoc}")) {
      return null;
    }
    String body = comment.substring(3, comment.length() - 2);
    StringBuilder sb = new StringBuilder();
    for (String line : body.split("\\R", -1)) {
      String l = line.strip();
      while (l.startsWith("*")) {
        l = l.substring(1);
      }
      l = l.strip();
      if (l.startsWith("@")) {
        break;
      }
      sb.append(l).append(' ');
    }
    String s = sb.toString();
    s = replaceAll(CODE_TAG, s, m -> m.group(1).strip());
    s = replaceAll(LINK_TAG, s, m -> m.group(2) != null && !m.group(2).isBlank()
        ? m.group(2).strip() : linkTarget(m.group(1)));
    s = OTHER_TAG.matcher(s).replaceAll(" ");
    s = HTML.matcher(s).replaceAll(" ");
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&nbsp;", " ").replace("&#64;", "@").replace("&amp;", "&");
    s = SPACES.matcher(s).replaceAll(" ").strip();
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
    s = s.strip();
    return s.isEmpty() ? null : s;
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

  private static String replaceAll(Pattern p, String s,
      java.util.function.Function<Matcher, String> f) {
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
   * The parts of an identifier, lower-cased: split on {@code _}, lower-to-upper case changes,
   * acronym ends ({@code XMLHttp}: {@code xml, http}) and letter/digit changes.
   */
  static List<String> identifierParts(String id) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int n = id.length();
    for (int i = 0; i < n; i++) {
      char c = id.charAt(i);
      if (c == '_' || c == '$') {
        flush(cur, parts);
        continue;
      }
      if (cur.length() > 0) {
        char p = id.charAt(i - 1);
        boolean boundary = Character.isLowerCase(p) && Character.isUpperCase(c)
            || Character.isDigit(p) != Character.isDigit(c)
            || Character.isUpperCase(p) && Character.isUpperCase(c) && i + 1 < n
            && Character.isLowerCase(id.charAt(i + 1));
        if (boundary) {
          flush(cur, parts);
        }
      }
      cur.append(c);
    }
    flush(cur, parts);
    return parts;
  }

  private static void flush(StringBuilder cur, List<String> parts) {
    if (cur.length() > 0) {
      parts.add(cur.toString().toLowerCase(Locale.ROOT));
      cur.setLength(0);
    }
  }
}
