package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.Ripgrep;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code prism-index search} in its exact modes equals ripgrep on one fixture tree with the odd
 * files of real repositories (binary, not UTF-8, a UTF-8 and a UTF-16 byte-order mark, a 300 000
 * character line with matches at both ends, CRLF, a lone and a final CR, a link out of the tree,
 * git-ignored and hidden files, a secret-looking file, a file over the index's 1 MiB (indexed for
 * exact search only, issue 39), a non-ASCII path, an empty
 * file), for literal and regex
 * patterns, case-sensitive, {@code -i}, {@code -S}, {@code -w} and several {@code -e}: every
 * matching line (path, line), its first match (column, text), and for patterns without word
 * boundaries every non-empty match. Both with an index (served from its grams) and without one
 * (core's scanner over the files the index would hold), each compared with {@code rg --hidden},
 * as the index holds hidden files.
 *
 * <p>With {@code rg} on the PATH the comparison is live; the answers are also checked against the
 * recorded ones ({@code rg-expected.ndjson.gz}, written by {@code scripts/rg-expected} with ripgrep
 * 13.0.0, Debian 12's), and without {@code rg} (a clean CI machine where {@code .ci/run} could not
 * install it) only against the recording, which the test says loudly on stderr.
 *
 * <p>Not compared, by design, each asserted on its own: files the index leaves out by its rules
 * (the secret-looking {@code config/credentials.json}), which
 * every answer counts in {@code notSearched}; and ripgrep 13's bugs fixed in ripgrep 14 (see
 * {@code RegexRipgrepDifferentialTest}), none of which this fixture's cases meet.
 */
class RgEquivalenceTest {

  /** Where the recorded answers live, relative to the module. */
  static final Path RECORDED =
      Path.of("src/test/resources/dev/prismindex/cli/rg-expected.ndjson.gz");

  /** The cases: a name, the arguments of prism-index's search, and ripgrep's. */
  record Case(String name, List<String> ours, List<String> rg) {}

  static final List<Case> CASES = cases();

  private static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    String[] literals = {"foo", "FOO", "fooBar", "parseDuration", "a.b", "(x", "straße",
        "STRASSE", "café", "K", "needle", "\t", "  ", "return", "中文", "😀", "TODO"};
    for (String q : literals) {
      out.add(new Case("F-s " + q, List.of("-F", "-s", "-e", q), List.of("-F", "-s", "-e", q)));
      if (!q.equals("straße")) {
        // -i of the literal mode lower-cases as the seam's contract says; for these queries that
        // is ripgrep's folding too (see caseFoldingOfTheLiteralModeIsTheContracts).
        out.add(new Case("F-i " + q, List.of("-F", "-i", "-e", q), List.of("-F", "-i", "-e", q)));
      }
    }
    String[] regexes = {"foo\\w*", "\\bfoo\\b", "[A-Z][a-z]+Bar", "\\d{2,}", "^\\s+return",
        "foo$", "\\s+$", "σ", "ς|Σ", "\\p{Greek}+", "k", "ſ", "caf.", ".{3}foo", "é", "中文|TODO",
        "needle$", "[^a-z ]+", "x*", "^$", "(?i)straße", "\\w+\\(", "parse[A-Z]\\w+",
        "\"[^\"]*\"", "a\\.b|\\(x", "\\t\\w", "[[:upper:]]{2,}", "İ", "i", "\\x{FEFF}foo",
        "(?x) foo \\s* bar", "f(o)+B"};
    for (String p : regexes) {
      out.add(new Case("e " + p, List.of("-e", p), List.of("-e", p)));
      out.add(new Case("e-i " + p, List.of("-i", "-e", p), List.of("-i", "-e", p)));
      out.add(new Case("e-S " + p, List.of("-S", "-e", p), List.of("-S", "-e", p)));
    }
    String[] words = {"foo", "fooBar", "\\w+Bar", "bar", "café", "[a-z]+", "needle"};
    for (String p : words) {
      out.add(new Case("w " + p, List.of("-w", "-e", p), List.of("-w", "-e", p)));
      out.add(new Case("w-i " + p, List.of("-w", "-i", "-e", p), List.of("-w", "-i", "-e", p)));
    }
    out.add(new Case("F-w foo", List.of("-F", "-w", "-s", "-e", "foo"),
        List.of("-F", "-w", "-s", "-e", "foo")));
    out.add(new Case("e e foo bar", List.of("-e", "foo", "-e", "bar"),
        List.of("-e", "foo", "-e", "bar")));
    out.add(new Case("F e e", List.of("-F", "-s", "-e", "a.b", "-e", "(x"),
        List.of("-F", "-s", "-e", "a.b", "-e", "(x")));
    for (String q : List.of("Foo", "foo")) {
      out.add(new Case("F-S " + q, List.of("-F", "-S", "-e", q), List.of("-F", "-S", "-e", q)));
    }
    out.add(new Case("regex flag", List.of("--regex", "fo+B"), List.of("-e", "fo+B")));
    return out;
  }

  private static Path root;
  private static Path outside;
  private static Optional<Path> rg;

  @BeforeAll
  static void fixture() throws IOException, InterruptedException {
    root = Files.createTempDirectory("rg-equivalence");
    outside = Files.createTempFile("rg-equivalence-outside", ".txt");
    Files.writeString(outside, "foo outside the tree\n");
    RgFixture.write(root, outside);
    rg = Ripgrep.executable();
    if (rg.isEmpty()) {
      System.err.println("*** RgEquivalenceTest: rg is not installed; comparing with the recorded"
          + " answers of ripgrep 13.0.0 only (install ripgrep for the live comparison) ***");
    }
  }

  @AfterAll
  static void cleanUp() throws IOException {
    Trees.delete(root);
    Files.deleteIfExists(outside);
  }

  /**
   * One matching line: its path and number, its first match, its non-empty matches, and whether
   * it holds a byte that is not UTF-8 (shown as U+FFFD).
   */
  record Line(String path, int line, int column, String first, List<List<Object>> spans,
      boolean badBytes) {}

  @Test
  void exactSearchEqualsRipgrepWithAndWithoutAnIndex() throws Exception {
    Map<String, List<Line>> recorded = readRecorded();
    boolean record = Boolean.getBoolean("prism.rg.record");
    Map<String, List<Line>> live = new LinkedHashMap<>();
    List<String> differences = new ArrayList<>();
    Harness h = new Harness(root);
    Path noIndex = Files.createTempDirectory("rg-equivalence-no-index").resolve("none");
    int compared = 0;
    wordStartBug = 0;
    for (String pass : List.of("no index", "index")) {
      if (pass.equals("index")) {
        Harness.Result r = h.run("index", "--no-semantic");
        assertThat(r.exit()).as(r.toString()).isZero();
      }
      for (Case c : CASES) {
        String key = pass + " | " + c.name();
        // both passes read the files the index reads: one ripgrep answer (recorded under index)
        String recordKey = "index | " + c.name();
        List<String> args = new ArrayList<>(List.of("search", "--json"));
        if (pass.equals("no index")) {
          args.addAll(List.of("--index-dir", noIndex.toString()));
        }
        args.addAll(c.ours());
        Harness.Result r = h.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(key + "\n" + r).isZero();
        List<Line> ours = lines(r.json());
        List<Line> theirs;
        if (rg.isPresent()) {
          List<String> rgArgs = new ArrayList<>(List.of("--sort", "path", "--encoding", "none"));
          rgArgs.addAll(List.of("--hidden", "-g", "!.git/"));
          rgArgs.addAll(c.rg());
          rgArgs.add("."); // never stdin
          theirs = fromRipgrep(Ripgrep.matches(rg.get(), root, rgArgs).matches());
          live.put(recordKey, theirs);
        } else {
          theirs = recorded.get(recordKey);
          assertThat(theirs).as("no recorded answer for " + recordKey + ": run scripts/rg-expected")
              .isNotNull();
        }
        if (pass.equals("index")) {
          // The index's rules leave these out; every answer counts them instead.
          theirs = theirs.stream().filter(l -> !RgFixture.NOT_INDEXED.contains(l.path())).toList();
          if (!r.json().isEmpty()) {
            assertThat(r.json().get(0).path("notSearched").path("secret").asInt()).isEqualTo(1);
            assertThat(r.json().get(0).path("notSearched").path("oversize").asInt()).isZero();
          }
        } else {
          // The scanner lists the files the index's walk lists: no secret-looking name.
          theirs = theirs.stream().filter(l -> !RgFixture.NOT_LISTED.contains(l.path())).toList();
        }
        boolean words = c.ours().contains("-w");
        boolean boundaries = words || String.join(" ", c.ours()).contains("\\b");
        // The literal mode reports the first occurrence of each line (the seam's contract).
        boolean literal = c.ours().contains("-F") && !words
            && c.ours().stream().filter("-e"::equals).count() == 1;
        if (words) {
          // ripgrep 13's -w never matches next to a byte that is not UTF-8 (ripgrep 14 does).
          ours = ours.stream().filter(l -> !l.badBytes()).toList();
          theirs = theirs.stream().filter(l -> !l.badBytes()).toList();
          Map<String, Line> byLine = new TreeMap<>();
          for (Line o : ours) {
            byLine.put(o.path() + ":" + o.line(), o);
          }
          List<Line> fixed = new ArrayList<>();
          for (Line t : theirs) {
            Line o = byLine.get(t.path() + ":" + t.line());
            if (o != null && rg13WordStartBug(o, t)) {
              wordStartBug++;
              fixed.add(o);
            } else {
              fixed.add(t);
            }
          }
          theirs = fixed;
        }
        if (!same(ours, theirs, !boundaries && !literal)) {
          differences.add(key + ":\n  ours " + ours + "\n  rg   " + theirs);
        }
        compared++;
      }
    }
    if (record && rg.isPresent()) {
      writeRecorded(live);
    } else if (rg.isPresent() && !recorded.isEmpty()) {
      // The recording must stay the live answer of the same fixture (ripgrep 13.0.0).
      String version = Ripgrep.version(rg.get());
      if (version.startsWith("ripgrep 13.0.0")) {
        for (Map.Entry<String, List<Line>> e : live.entrySet()) {
          assertThat(e.getValue()).as("recorded " + e.getKey() + " (scripts/rg-expected)")
              .isEqualTo(recorded.get(e.getKey()));
        }
      }
    }
    System.err.println("RgEquivalenceTest: " + compared + " cases (" + CASES.size()
        + " patterns, with and without an index) against "
        + (rg.isPresent() ? Ripgrep.version(rg.get()) + ", live" : "the recorded answers")
        + ": " + differences.size() + " differences (" + wordStartBug + " first matches of -w"
        + " at a line start that ripgrep 13 shortens by a character, its bug #2574, taken as"
        + " ours)");
    assertThat(differences).isEmpty();
  }

  @Test
  void caseFoldingOfTheLiteralModeIsTheContracts() {
    // The literal mode lower-cases both sides (Locale.ROOT, as the seam's contract says): the
    // long s lower-cases to itself, so it is found alone, where ripgrep's -i folds it with s and
    // S. The regex mode folds as ripgrep does.
    Harness h = new Harness(root);
    String none = root.resolve(".no-index-here").toString();
    List<Line> literal = lines(h.run("search", "--json", "--index-dir", none, "-F", "-i", "-e",
        "\u017F").json());
    assertThat(literal).extracting(l -> l.path() + ":" + l.line())
        .containsExactly("docs/unicode.txt:2");
    List<Line> regex = lines(h.run("search", "--json", "--index-dir", none, "-i", "-e",
        "\u017F").json());
    assertThat(regex.size()).isGreaterThan(10); // every line with an s
    rg.ifPresent(r -> assertThat(regex).isEqualTo(fromRipgrep(Ripgrep.matches(r, root,
        List.of("--sort", "path", "--encoding", "none", "--hidden", "-g", "!.git/", "-i", "-e",
            "\u017F", ".")).matches()).stream()
        .filter(l -> !RgFixture.NOT_LISTED.contains(l.path())).toList()));
  }

  private static int wordStartBug;

  /**
   * ripgrep 13's -w bug (#2574, fixed in ripgrep 14): a match at the start of a line other than
   * its buffer's first is reported a character short at its start whenever the rest still matches.
   */
  static boolean rg13WordStartBug(Line ours, Line theirs) {
    if (ours.column() != 1 || ours.first().isEmpty() || theirs.column() == 0) {
      return false;
    }
    int width = Character.charCount(ours.first().codePointAt(0));
    return theirs.column() == 1 + width && ours.first().substring(width).startsWith(theirs.first())
        && !theirs.first().isEmpty();
  }

  private static boolean same(List<Line> ours, List<Line> theirs, boolean allMatches) {
    if (ours.size() != theirs.size()) {
      return false;
    }
    Map<String, Line> byLine = new TreeMap<>();
    for (Line l : theirs) {
      byLine.put(l.path() + ":" + l.line(), l);
    }
    for (Line o : ours) {
      Line t = byLine.get(o.path() + ":" + o.line());
      if (t == null || t.column() != 0 && (o.column() != t.column() || !o.first().equals(t.first()))
          || allMatches && !o.spans().equals(t.spans())) {
        return false;
      }
    }
    return true;
  }

  /** Our hits as lines. */
  static List<Line> lines(List<JsonNode> hits) {
    List<Line> out = new ArrayList<>();
    for (JsonNode h : hits) {
      List<List<Object>> spans = new ArrayList<>();
      String first = "";
      boolean firstSet = false;
      for (JsonNode m : h.path("matches")) {
        if (!firstSet) {
          first = m.path("text").asText();
          firstSet = true;
        }
        if (m.path("endColumn").asInt() > m.path("column").asInt()) {
          spans.add(List.of(m.path("column").asInt(), m.path("endColumn").asInt(),
              m.path("text").asText()));
        }
      }
      out.add(new Line(h.path("path").asText(), h.path("line").asInt(),
          h.path("column").asInt(), first, spans, h.path("snippet").asText().contains("\uFFFD")));
    }
    return out;
  }

  /**
   * ripgrep's matching lines, as lines (a line without submatches has column 0), each match's
   * text cut as prism-index cuts it ({@link MatchSpan#MAX_TEXT_CHARS} units).
   */
  static List<Line> fromRipgrep(List<Ripgrep.Match> matches) {
    List<Line> out = new ArrayList<>();
    for (Ripgrep.Match m : matches) {
      List<List<Object>> spans = new ArrayList<>();
      for (Ripgrep.Span s : m.spans()) {
        if (!s.empty()) {
          spans.add(List.of(s.start() + 1, s.end() + 1, cut(s.text())));
        }
      }
      Ripgrep.Span first = m.spans().isEmpty() ? null : m.spans().get(0);
      out.add(new Line(m.path(), m.line(), first == null ? 0 : first.start() + 1,
          first == null ? "" : cut(first.text()), spans, m.text().contains("\uFFFD")));
    }
    return out;
  }

  private static String cut(String text) {
    return MatchSpan.in(text, 0, text.length()).text();
  }

  private static Map<String, List<Line>> readRecorded() throws IOException {
    Map<String, List<Line>> out = new LinkedHashMap<>();
    try (InputStream raw = RgEquivalenceTest.class.getResourceAsStream("rg-expected.ndjson.gz")) {
      if (raw == null) {
        return out;
      }
      InputStream in = new java.util.zip.GZIPInputStream(raw);
      for (String row : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (row.isBlank()) {
          continue;
        }
        JsonNode o = Harness.JSON.readTree(row);
        List<Line> lines = new ArrayList<>();
        for (JsonNode l : o.path("lines")) {
          List<List<Object>> spans = new ArrayList<>();
          for (JsonNode s : l.path("spans")) {
            spans.add(List.of(s.get(0).asInt(), s.get(1).asInt(), s.get(2).asText()));
          }
          lines.add(new Line(l.path("path").asText(), l.path("line").asInt(),
              l.path("column").asInt(), l.path("first").asText(), spans,
              l.path("badBytes").asBoolean()));
        }
        out.put(o.path("case").asText(), lines);
      }
    }
    return out;
  }

  private static void writeRecorded(Map<String, List<Line>> live) throws IOException {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, List<Line>> e : live.entrySet()) {
      ObjectNode o = Harness.JSON.createObjectNode();
      o.put("case", e.getKey());
      ArrayNode lines = o.putArray("lines");
      for (Line l : e.getValue()) {
        ObjectNode n = lines.addObject();
        n.put("path", l.path());
        n.put("line", l.line());
        n.put("column", l.column());
        n.put("first", l.first());
        n.put("badBytes", l.badBytes());
        ArrayNode spans = n.putArray("spans");
        for (List<Object> s : l.spans()) {
          ArrayNode a = spans.addArray();
          a.add((Integer) s.get(0));
          a.add((Integer) s.get(1));
          a.add((String) s.get(2));
        }
      }
      b.append(Harness.JSON.writeValueAsString(o)).append('\n');
    }
    Files.createDirectories(RECORDED.getParent());
    try (java.io.OutputStream o = new java.util.zip.GZIPOutputStream(
        Files.newOutputStream(RECORDED))) {
      o.write(b.toString().getBytes(StandardCharsets.UTF_8));
    }
    System.err.println("RgEquivalenceTest: recorded " + live.size() + " answers in " + RECORDED);
  }

  /** Deletes trees. */
  static final class Trees {
    private Trees() {}

    static void delete(Path p) throws IOException {
      if (p == null || !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
      try (var walk = Files.walk(p)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(x -> {
          try {
            Files.delete(x);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
    }
  }

  /** The fixture tree, the same bytes on every run (its answers are recorded). */
  static final class RgFixture {
    private RgFixture() {}

    /**
     * Files the index leaves out by its rules: a secret-looking name ({@code data/big.txt}, over
     * 1 MiB, is indexed for exact search: issue 39).
     */
    static final Set<String> NOT_INDEXED = Set.of("config/credentials.json");
    /** Files the index's walk does not list (a secret-looking name), so the scanner neither. */
    static final Set<String> NOT_LISTED = Set.of("config/credentials.json");

    static void write(Path root, Path outside) throws IOException, InterruptedException {
      file(root, ".gitignore", "ignored/\n*.log\n");
      file(root, "src/Main.java", String.join("\n",
          "package demo;",
          "",
          "/** fooBar, parseDuration and friends. TODO: more */",
          "public final class Main {",
          "  private int fooBar = 42;",
          "\tprivate String name = \"foo\";",
          "  static long parseDuration(String s) {",
          "    return Long.parseLong(s); // a.b (x foo  ",
          "  }",
          "  void foo() { foo(); FOO(); Foo(); }",
          "}",
          ""));
      file(root, "src/util/strings.py", "def foo_bar(x):\n    return x  # foo bar\n"
          + "def fooBar():\n\treturn 'Straße'\n");
      file(root, "docs/unicode.txt", String.join("\n",
          "Kelvin \u212A and k and K",
          "long \u017F and s and S",
          "stra\u00DFe STRASSE Stra\u00DFe STRA\u1E9EE",
          "\u03A3\u038A\u03A3\u03A5\u03A6\u039F\u03A3 \u03C3\u03AF\u03C3\u03C5\u03C6\u03BF\u03C2 \u03C2",
          "\u0130stanbul istanbul ISTANBUL",
          "caf\u00E9 CAF\u00C9 cafe\u0301",
          "emoji \uD83D\uDE00 foo \uD83D\uDE00foo",
          "\u4E2D\u6587 TODO\u4FEE\u590D foo\u4E2D",
          "nbsp\u00A0foo\u3000bar",
          "\u00E9foo foo\u00E9 foo",
          ""));
      bytes(root, "docs/latin1.txt", new byte[] {'c', 'a', 'f', (byte) 0xE9, ' ', 'f', 'o', 'o',
          '\n', 'c', 'r', (byte) 0xE8, 'm', 'e', ' ', 'b', 'r', (byte) 0xFB, 'l', (byte) 0xE9, 'e',
          '\n', (byte) 0xE2, (byte) 0x82, 'f', 'o', 'o', (byte) 0xC3, '\n'});
      bytes(root, "docs/bom.txt", ("\uFEFFfoo with a byte-order mark\nfoo\n")
          .getBytes(StandardCharsets.UTF_8));
      byte[] utf16 = "\uFEFFfoo in UTF-16\n".getBytes(StandardCharsets.UTF_16LE);
      bytes(root, "docs/utf16.txt", utf16);
      bytes(root, "docs/\u00FCn\u00EFcode.txt", "foo in a non-ASCII path\n"
          .getBytes(StandardCharsets.UTF_8));
      file(root, "data/crlf.txt",
          "foo\r\nbar foo\r\na\rb foo\r\n  return x\r\nfoo bar \r\nend foo\r");
      file(root, "data/huge.txt", "start foo\nfooBar " + "q".repeat(300_000)
          + " fooBar needle\nparseDuration end\n");
      StringBuilder big = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        big.append("z".repeat(10_999)).append('\n'); // over the index's 1 MiB, few lines
      }
      big.append("needle in a big file foo\n");
      file(root, "data/big.txt", big.toString());
      file(root, "data/empty.txt", "");
      file(root, "data/no-newline.txt", "foo at the end without a newline");
      bytes(root, "bin/blob.bin", new byte[] {0, 1, 2, 'f', 'o', 'o', 0, 'f', 'o', 'o', '\n'});
      file(root, "config/credentials.json", "{\"foo\": \"not a secret\"}\n");
      file(root, ".github/ci.yml", "run: foo --bar\n");
      file(root, "ignored/x.txt", "foo ignored\n");
      file(root, "debug.log", "foo logged\n");
      Files.createSymbolicLink(root.resolve("link_out.txt"), outside);
      run(root, "git", "init", "-q", ".");
    }

    private static void file(Path root, String rel, String content) throws IOException {
      bytes(root, rel, content.getBytes(StandardCharsets.UTF_8));
    }

    private static void bytes(Path root, String rel, byte[] content) throws IOException {
      Path p = root.resolve(rel);
      Files.createDirectories(p.getParent());
      Files.write(p, content);
    }

    private static void run(Path dir, String... command) throws IOException,
        InterruptedException {
      Process p = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("failed: " + String.join(" ", command));
      }
    }
  }
}
