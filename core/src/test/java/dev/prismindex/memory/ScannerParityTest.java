package dev.prismindex.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code indexed_literal} against the literal scanner on randomised trees: for every query, the files
 * with a content match, and each one's first matching line, column and text, must be exactly the
 * scanner's; path matches must be exactly the files whose path contains the query; hits must come in
 * the documented tier and path order.
 *
 * <p>The trees mix case-changing and context-sensitive characters (final sigma, dotted capital I,
 * the Kelvin sign, Deseret letters outside the BMP), regex metacharacters, CR, CRLF and a final CR,
 * malformed UTF-8, lines over the line limit, and files updated in several batches (so queries span
 * several segments, merges and deleted documents). Queries are substrings of the content (also cut
 * inside a surrogate pair), case-flipped, of length 1 and 2, or random. Reproduce a failure with
 * {@code -Dprism.test.seed=<seed>} (the seed is in the assertion message).
 */
class ScannerParityTest {

  private static final int MAX_LINE_BYTES = 200;
  private static final String[] ATOMS = {
      "a", "b", "c", "x", "y", "z", "A", "B", "Z", "0", "1", "9", " ", "\t", ".", "*", "+", "?",
      "(", ")", "[", "]", "{", "}", "|", "^", "$", "\\", "é", "É", "ß", "İ", "ı", "Σ", "σ", "ς",
      "\u212A", "k", "K", "😀", "\uD801\uDC00", "\uD801\uDC28", "中", "\uFFFD", "ab", "foo", "Bar",
      "needle", "NEEDLE", "ΑΣ", "-", "/", "\r"};

  @TempDir
  Path root;

  @Test
  void indexedLiteralEqualsTheScannerOnRandomTrees() throws IOException {
    long base = Long.getLong("prism.test.seed", System.nanoTime());
    for (int round = 0; round < 6; round++) {
      long seed = base + round;
      Path tree = Files.createDirectory(root.resolve("t" + round));
      runOneTree(tree, seed);
    }
  }

  private void runOneTree(Path tree, long seed) throws IOException {
    Random random = new Random(seed);
    Map<String, List<String>> lines = new TreeMap<>();
    int files = 10 + random.nextInt(40);
    for (int i = 0; i < files; i++) {
      String dir = random.nextInt(3) == 0 ? "" : "d" + random.nextInt(4) + "/";
      if (random.nextInt(4) == 0) {
        dir += "sub" + (random.nextBoolean() ? "é" : "x") + "/";
      }
      String path = dir + "f" + i + (random.nextBoolean() ? "-Needle" : "") + ".txt";
      lines.put(path, writeFile(tree, path, random));
    }
    RepositoryLimits limits = RepositoryLimits.builder().maxLineBytes(MAX_LINE_BYTES)
        .maxMatches(10_000).build();
    RepositoryOperations scanner = RepositoryOperations.local(limits);
    InMemoryIndexBackend backend =
        InMemoryIndexBackend.builder(tree).maxLineBytes(MAX_LINE_BYTES).withoutSemantic().build();
    List<String> paths = new ArrayList<>(lines.keySet());
    int at = 0;
    int batch = 0;
    while (at < paths.size()) {
      int size = 1 + random.nextInt(6);
      List<IndexFileChange> changes = new ArrayList<>();
      for (String path : paths.subList(at, Math.min(paths.size(), at + size))) {
        changes.add(IndexFileChange.of(path, IndexFileChangeKind.ADD));
      }
      backend.update(IndexUpdateRequest.of("r" + batch++, changes));
      at += size;
    }
    // rewrite a few files so that old copies become deleted documents
    List<IndexFileChange> edits = new ArrayList<>();
    for (int i = 0; i < 1 + paths.size() / 5; i++) {
      String path = paths.get(random.nextInt(paths.size()));
      lines.put(path, writeFile(tree, path, random));
      edits.add(IndexFileChange.of(path, IndexFileChangeKind.EDIT));
    }
    backend.update(IndexUpdateRequest.of("edits", edits));

    for (int q = 0; q < 150; q++) {
      String query = query(random, lines);
      boolean caseSensitive = random.nextInt(3) == 0;
      compare(tree, seed, scanner, backend, query, caseSensitive, paths);
    }
    backend.dispose();
  }

  private static void compare(Path tree, long seed, RepositoryOperations scanner,
      InMemoryIndexBackend backend, String query, boolean caseSensitive, List<String> paths)
      throws IOException {
    String what = String.format(Locale.ROOT, "seed %d, query \"%s\" (%s)", seed,
        escape(query), caseSensitive ? "case-sensitive" : "case-insensitive");
    Map<String, String> expected = new TreeMap<>();
    for (RepositorySearchMatch match : scanner.search(RepositorySearchRequest.builder(tree, query)
        .caseSensitive(caseSensitive).context(0).maxMatches(10_000).build()).matches()) {
      expected.putIfAbsent(match.path(),
          match.line() + ":" + match.column() + ":" + escape(match.text()));
    }
    IndexQueryResult result = backend.search(new IndexQuery(query, SearchMode.INDEXED_LITERAL,
        null, 10_000, caseSensitive, AbortSignal.create(), 10_000));
    assertThat(result.truncated()).as(what).isFalse();
    Map<String, String> actual = new TreeMap<>();
    TreeSet<String> pathHits = new TreeSet<>();
    double previousScore = 2;
    String previousPath = "";
    for (IndexSearchHit hit : result.hits()) {
      if (hit.score() == previousScore) {
        assertThat(hit.path()).as(what + ": path order within a tier").isGreaterThan(previousPath);
      } else {
        assertThat(hit.score()).as(what + ": tier order").isLessThan(previousScore);
      }
      previousScore = hit.score();
      previousPath = hit.path();
      if (hit.score() == MemoryLiteralSearcher.SCORE_PATH) {
        assertThat(hit.line()).isZero();
        pathHits.add(hit.path());
      } else {
        actual.put(hit.path(), hit.line() + ":" + hit.column() + ":" + escape(hit.snippet()));
        if (hit.score() == MemoryLiteralSearcher.SCORE_CONTENT_AND_PATH) {
          pathHits.add(hit.path());
        }
      }
    }
    assertThat(actual).as(what).isEqualTo(expected);
    LiteralPattern pattern = LiteralPattern.compile(query, caseSensitive, 4096);
    TreeSet<String> expectedPaths = new TreeSet<>();
    for (String path : paths) {
      if (pattern.column(path) > 0) {
        expectedPaths.add(path);
      }
    }
    assertThat(pathHits).as(what + ": path matches").isEqualTo(expectedPaths);
  }

  private static List<String> writeFile(Path tree, String path, Random random) throws IOException {
    List<String> texts = new ArrayList<>();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean ascii = random.nextInt(3) == 0; // pure-ASCII files take the byte prefilter path
    int lineCount = random.nextInt(12);
    for (int l = 0; l < lineCount; l++) {
      StringBuilder line = new StringBuilder();
      int atoms = random.nextInt(10) == 0 ? 150 + random.nextInt(60) : random.nextInt(14);
      for (int a = 0; a < atoms; a++) {
        String atom = ATOMS[random.nextInt(ATOMS.length)];
        while (ascii && atom.chars().anyMatch(c -> c >= 0x80)) {
          atom = ATOMS[random.nextInt(ATOMS.length)];
        }
        line.append(atom);
      }
      texts.add(line.toString());
      bytes.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
      if (!ascii && random.nextInt(12) == 0) {
        // malformed UTF-8: a stray continuation, an invalid byte, a truncated sequence
        bytes.writeBytes(new byte[][] {{(byte) 0x80}, {(byte) 0xFF}, {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xC3}}[random.nextInt(4)]);
      }
      if (l < lineCount - 1 || random.nextBoolean()) {
        bytes.writeBytes(random.nextInt(3) == 0 ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
      } else if (random.nextInt(4) == 0) {
        bytes.write('\r');
      }
    }
    Path file = tree.resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes.toByteArray());
    return texts;
  }

  private static String query(Random random, Map<String, List<String>> files) {
    int kind = random.nextInt(10);
    if (kind < 5) {
      List<List<String>> all = new ArrayList<>(files.values());
      List<String> lines = all.get(random.nextInt(all.size()));
      if (!lines.isEmpty()) {
        String line = lines.get(random.nextInt(lines.size()));
        if (line.length() > 0) {
          int start = random.nextInt(line.length());
          int end = Math.min(line.length(), start + 1 + random.nextInt(8));
          String text = line.substring(start, end);
          int flip = random.nextInt(3);
          return flip == 0 ? text : flip == 1 ? text.toUpperCase(Locale.ROOT)
              : text.toLowerCase(Locale.ROOT);
        }
      }
    }
    if (kind < 8) {
      String atom = ATOMS[random.nextInt(ATOMS.length)] + ATOMS[random.nextInt(ATOMS.length)];
      return atom.substring(0, random.nextBoolean() ? 1 : Math.min(2, atom.length()));
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i <= random.nextInt(4); i++) {
      text.append(ATOMS[random.nextInt(ATOMS.length)]);
    }
    return text.toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      out.append(c < 0x20 || c > 0x7e ? String.format(Locale.ROOT, "\\u%04x", (int) c) : c);
    }
    return out.toString();
  }
}
