package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.prismindex.internal.Utf8;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSearchTest {

  @TempDir Path temp;
  TestTree tree;
  RepositoryOperations ops = RepositoryOperations.local(RepositoryLimits.defaults());

  @BeforeEach
  void setUp() throws IOException {
    tree = new TestTree(Files.createDirectory(temp.resolve("repo")));
  }

  RepositorySearchRequest.Builder query(String q) {
    return RepositorySearchRequest.builder(tree.root(), q);
  }

  RepositorySearchResult search(String q) {
    return ops.search(query(q).build());
  }

  static RepositoryOperations ops(RepositoryLimits.Builder limits) {
    return RepositoryOperations.local(limits.build());
  }

  static List<String> where(RepositorySearchResult result) {
    List<String> out = new ArrayList<>();
    for (RepositorySearchMatch m : result.matches()) {
      out.add(m.path() + ":" + m.line() + ":" + m.column());
    }
    return out;
  }

  @Test
  void findsMatchesSortedByPathLineColumnWithCounters() {
    tree.file("b.txt", "one\nTwo needle\n")
        .file("a/z.txt", "needle\r\nxx needle")
        .file("a/y.txt", "nothing here\n");
    RepositorySearchResult result = search("NEEDLE");
    assertThat(where(result)).containsExactly("a/z.txt:1:1", "a/z.txt:2:4", "b.txt:2:5");
    assertThat(result.truncated()).isFalse();
    assertThat(result.truncatedBy()).isNull();
    assertThat(result.scannedEntries()).isEqualTo(4); // a, b.txt, a/y.txt, a/z.txt
    assertThat(result.scannedFiles()).isEqualTo(3);
    // line bytes only: "one"3 + "Two needle"10 + "needle"6 + "xx needle"9 + "nothing here"12
    assertThat(result.scannedBytes()).isEqualTo(40);
    assertThat(result.filesSkippedBinary()).isZero();
    assertThat(result.filesSkippedOversize()).isZero();
    assertThat(result.indexed()).isNull();
    assertThat(result.untrustedIndex()).isFalse();
    RepositorySearchMatch first = result.matches().get(0);
    assertThat(first.text()).isEqualTo("needle");
    assertThat(first.endLine()).isEqualTo(1);
    assertThat(first.score()).isNull();
  }

  @Test
  void caseSensitiveOnlyWhenAsked() {
    tree.file("f.txt", "Needle\nneedle\n");
    assertThat(where(search("needle"))).containsExactly("f.txt:1:1", "f.txt:2:1");
    assertThat(where(ops.search(query("needle").caseSensitive(true).build())))
        .containsExactly("f.txt:2:1");
  }

  @Test
  void lineEndingsCrlfLoneCrAndFinalCr() {
    tree.file("crlf.txt", "a\r\nmatch\r\n")
        .file("lone.txt", "x\rmatch\ry\n")
        .file("final.txt", "q\nmatch\r");
    RepositorySearchResult result = ops.search(query("match").context(1).build());
    assertThat(result.matches()).extracting(RepositorySearchMatch::path, RepositorySearchMatch::line,
            RepositorySearchMatch::column, RepositorySearchMatch::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("crlf.txt", 2, 1, "match"),
            org.assertj.core.groups.Tuple.tuple("final.txt", 2, 1, "match"),
            org.assertj.core.groups.Tuple.tuple("lone.txt", 1, 3, "x\rmatch\ry"));
    assertThat(result.matches().get(0).before()).containsExactly("a");
    assertThat(result.matches().get(1).before()).containsExactly("q");
    // crlf: 1 + 5, lone: 9, final: 1 + 5 (final CR stripped, not charged)
    assertThat(result.scannedBytes()).isEqualTo(21);
  }

  @Test
  void malformedUtf8IsReplacedAndMultiByteColumnsAreUtf16() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xE2, (byte) 0x82});
    bytes.writeBytes("😀needle\n".getBytes(StandardCharsets.UTF_8));
    tree.file("bad.txt", bytes.toByteArray());
    RepositorySearchMatch match = search("needle").matches().get(0);
    assertThat(match.text()).isEqualTo("\uFFFD\uFFFD😀needle");
    assertThat(match.column()).isEqualTo(5);
  }

  @Test
  void caseInsensitiveColumnIsMeasuredInTheOriginalLine() {
    tree.file("i.txt", "İİ Needle İ\n");
    RepositorySearchMatch match = search("needle").matches().get(0);
    assertThat(match.column()).isEqualTo(4);
    assertThat(where(search("i̇ n"))).containsExactly("i.txt:1:2");
  }

  @Test
  void twentyKilobyteMultiByteLineAndMatchAcrossAChunkBoundary() {
    String longLine = "é€".repeat(4_000) + "target"; // 20 000 + 6 bytes
    StringBuilder big = new StringBuilder();
    big.append("x".repeat(FileScanner.CHUNK_BYTES - 3)).append("\nabtarget cd\n");
    tree.file("long.txt", longLine + "\n").file("span.txt", big.toString());
    RepositorySearchResult result = search("TARGET");
    assertThat(where(result)).containsExactly("long.txt:1:8001", "span.txt:2:3");
  }

  @Test
  void longLinesAreSearchedAndReportedAsBoundedWindows() {
    RepositoryOperations small = ops(RepositoryLimits.builder().maxLineBytes(40));
    String longContext = "0123456789".repeat(6);
    tree.file("f.txt", "before\n" + "x".repeat(100) + "needle-in-a-long-line" + "y".repeat(100)
        + "\nnear\nneedle\nafter1\n" + longContext + "\nafter2\n");
    RepositorySearchResult result = small.search(query("needle").context(2).build());
    assertThat(where(result)).containsExactly("f.txt:2:101", "f.txt:4:1");
    RepositorySearchMatch longMatch = result.matches().get(0);
    // 40 / 4 = 10 units before the match, then cut to 40 bytes; the column is the whole line's.
    assertThat(longMatch.text()).isEqualTo("x".repeat(10) + "needle-in-a-long-line" + "y".repeat(9));
    RepositorySearchMatch match = result.matches().get(1);
    assertThat(match.before()).containsExactly("x".repeat(40), "near");
    assertThat(match.after()).containsExactly("after1", longContext.substring(0, 40));
    assertThat(result.scannedBytes()).isEqualTo(6 + 221 + 4 + 6 + 6 + 60 + 6);
  }

  @Test
  void aTermDeepInsideA144KilobyteLineIsFound() {
    String line = "<td>" + "report cell ".repeat(12_000) + "UniqueTermDeepInside" + " tail".repeat(10);
    tree.file("report.html", "<html>\n" + line + "\n</html>\n");
    RepositorySearchResult result = search("uniquetermdeepinside");
    int column = line.indexOf("UniqueTermDeepInside") + 1;
    assertThat(where(result)).containsExactly("report.html:2:" + column);
    String text = result.matches().get(0).text();
    assertThat(text).contains("UniqueTermDeepInside");
    assertThat(Utf8.byteLength(text)).isLessThanOrEqualTo(RepositoryLimits.DEFAULT_MAX_SEARCH_LINE_BYTES);
  }

  @Test
  void contextWindowsOverlapAndNeverCrossFiles() {
    tree.file("a.txt", "l1\nhit1\nhit2\nl4\nl5\nl6\n").file("b.txt", "hit3\nb2\n");
    RepositorySearchResult result = ops.search(query("hit").context(2).build());
    assertThat(result.matches()).hasSize(3);
    assertThat(result.matches().get(0).before()).containsExactly("l1");
    assertThat(result.matches().get(0).after()).containsExactly("hit2", "l4");
    assertThat(result.matches().get(1).before()).containsExactly("l1", "hit1");
    assertThat(result.matches().get(1).after()).containsExactly("l4", "l5");
    assertThat(result.matches().get(2).before()).isEmpty();
    assertThat(result.matches().get(2).after()).containsExactly("b2");
    RepositorySearchResult none = ops.search(query("hit").context(0).build());
    assertThat(none.matches()).allSatisfy(m -> {
      assertThat(m.before()).isEmpty();
      assertThat(m.after()).isEmpty();
    });
    // default context comes from the limits (5)
    assertThat(search("l6").matches().get(0).before()).hasSize(5);
  }

  @Test
  void oneMatchPerLineAtTheFirstOccurrence() {
    tree.file("f.txt", "ab ab ab\n");
    assertThat(where(search("ab"))).containsExactly("f.txt:1:1");
  }

  @Test
  void binaryAndOversizeFilesAreSkippedButCounted() {
    byte[] binary = "needle\n".repeat(10).getBytes(StandardCharsets.UTF_8);
    binary[20] = 0;
    byte[] lateNul = new byte[8_192 + 10];
    Arrays.fill(lateNul, (byte) 'n');
    lateNul[8_192] = 0; // outside the sniff window: still text
    System.arraycopy("needle\n".getBytes(StandardCharsets.UTF_8), 0, lateNul, 0, 7);
    tree.file("bin.dat", binary)
        .file("late.txt", lateNul)
        .file("big.txt", "needle\n" + "x".repeat(100))   // 107 bytes
        .file("edge.txt", "needle\n" + "x".repeat(93))   // exactly 100 bytes: allowed
        .file("empty.txt", "");
    RepositoryOperations small = ops(RepositoryLimits.builder().maxFileBytes(100));
    RepositorySearchResult result = small.search(query("needle").build());
    assertThat(where(result)).containsExactly("edge.txt:1:1");
    assertThat(result.filesSkippedBinary()).isEqualTo(1);
    assertThat(result.filesSkippedOversize()).isEqualTo(2); // big.txt and late.txt (8 202 bytes)
    assertThat(result.scannedFiles()).isEqualTo(5);

    RepositorySearchResult large = search("needle");
    assertThat(where(large)).containsExactly(
        "big.txt:1:1", "edge.txt:1:1", "late.txt:1:1");
    assertThat(large.filesSkippedBinary()).isEqualTo(1);
    assertThat(large.filesSkippedOversize()).isZero();
  }

  @Test
  void unreadableFilesAreCountedAndSkipped() throws IOException {
    tree.file("a.txt", "needle\n").file("locked.txt", "needle\n");
    Path locked = tree.path("locked.txt");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    assumeThat(Files.isReadable(locked)).as("running as a user that can read anything").isFalse();
    RepositorySearchResult result = search("needle");
    assertThat(where(result)).containsExactly("a.txt:1:1");
    assertThat(result.scannedFiles()).isEqualTo(2);
    assertThat(result.filesSkippedUnreadable()).isEqualTo(1);
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void aFileSwappedForALinkAfterTheWalkIsCountedButNeverFollowed() throws IOException {
    Path outside = Files.createDirectory(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "hit\n");
    tree.file("a.txt", "hit\n").link("b.txt", outside.resolve("secret.txt"));
    // a walk that (like a race) still believes b.txt is a regular file
    RepoWalk racing = (request, visitor) -> {
      visitor.visit(new RepoWalk.Entry("a.txt", request.start().resolve("a.txt"),
          RepoEntryKind.FILE, 4));
      visitor.visit(new RepoWalk.Entry("b.txt", request.start().resolve("b.txt"),
          RepoEntryKind.FILE, 4));
      return null;
    };
    RepositorySearchResult result =
        new LocalRepositoryOperations(RepositoryLimits.defaults(), racing).search(query("hit").build());
    assertThat(where(result)).containsExactly("a.txt:1:1");
    assertThat(result.scannedFiles()).isEqualTo(2);
    assertThat(result.scannedEntries()).isEqualTo(2);
    assertThat(result.filesSkippedUnreadable()).isEqualTo(1);
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void scanBudgetEqualToTheTotalIsNotTruncated() {
    tree.file("a.txt", "12345\n67890\n"); // 10 line bytes
    RepositorySearchResult exact =
        ops(RepositoryLimits.builder().maxScanBytes(10)).search(query("0").build());
    assertThat(exact.truncated()).isFalse();
    assertThat(where(exact)).containsExactly("a.txt:2:5");
    assertThat(exact.scannedBytes()).isEqualTo(10);

    RepositorySearchResult over =
        ops(RepositoryLimits.builder().maxScanBytes(9)).search(query("0").build());
    assertThat(over.truncatedBy()).isEqualTo(TruncationReason.SCAN);
    assertThat(over.matches()).isEmpty(); // the crossing line is charged but not matched
    assertThat(over.scannedBytes()).isEqualTo(10);
  }

  @Test
  void exhaustedScanBudgetStopsBeforeTheNextFileChunk() {
    tree.file("a.txt", "12345\n").file("b.txt", "needle\n").file("c.txt", "");
    RepositorySearchResult result =
        ops(RepositoryLimits.builder().maxScanBytes(5)).search(query("needle").build());
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.SCAN);
    assertThat(result.matches()).isEmpty();
    assertThat(result.scannedBytes()).isEqualTo(5);
    assertThat(result.scannedFiles()).isEqualTo(2);
  }

  @Test
  void matchCapIsAppliedAfterSortingAndExactCapIsNotTruncated() {
    // Breadth-first order visits z.txt (depth 0) before a/b/c.txt (depth 2).
    tree.file("z.txt", "hit\n").file("a/b/c.txt", "hit\nhit\n").file("m/x.txt", "hit\n");
    RepositorySearchResult one = ops.search(query("hit").maxMatches(1).build());
    assertThat(where(one)).containsExactly("a/b/c.txt:1:1");
    assertThat(one.truncatedBy()).isEqualTo(TruncationReason.MATCHES);

    RepositorySearchResult three = ops.search(query("hit").maxMatches(3).build());
    assertThat(where(three)).containsExactly("a/b/c.txt:1:1", "a/b/c.txt:2:1", "m/x.txt:1:1");
    assertThat(three.truncatedBy()).isEqualTo(TruncationReason.MATCHES);

    RepositorySearchResult exact = ops.search(query("hit").maxMatches(4).build());
    assertThat(exact.matches()).hasSize(4);
    assertThat(exact.truncated()).isFalse();

    RepositorySearchResult limitDefault = ops(RepositoryLimits.builder().maxMatches(4))
        .search(query("hit").build());
    assertThat(limitDefault.truncated()).isFalse();
  }

  @Test
  void randomTreesReturnTheLexicographicallyFirstMatches() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 5; round++) {
      Path root = Files.createDirectory(temp.resolve("rnd" + round));
      TestTree rnd = new TestTree(root);
      List<String> expected = new ArrayList<>();
      int files = 5 + random.nextInt(20);
      for (int i = 0; i < files; i++) {
        StringBuilder path = new StringBuilder();
        int depth = random.nextInt(4);
        for (int d = 0; d < depth; d++) {
          path.append((char) ('a' + random.nextInt(4))).append('/');
        }
        path.append("f").append(i).append(".txt");
        StringBuilder content = new StringBuilder();
        int lines = 1 + random.nextInt(4);
        for (int l = 1; l <= lines; l++) {
          boolean hit = random.nextBoolean();
          content.append(hit ? "xKEYx" : "plain").append('\n');
          if (hit) {
            expected.add(path + ":" + l + ":2");
          }
        }
        rnd.file(path.toString(), content.toString());
      }
      expected.sort(null);
      int cap = 1 + random.nextInt(Math.max(1, expected.size() + 1));
      RepositorySearchResult result = ops.search(
          RepositorySearchRequest.builder(root, "key").maxMatches(cap).build());
      List<String> got = where(result);
      // paths sort like strings, lines within a file numerically: compare per sorted file order
      List<String> want = expected.stream()
          .sorted((x, y) -> {
            String px = x.substring(0, x.indexOf(':'));
            String py = y.substring(0, y.indexOf(':'));
            int c = px.compareTo(py);
            return c != 0 ? c : Integer.compare(line(x), line(y));
          })
          .limit(cap).toList();
      assertThat(got).as("seed %d round %d cap %d", seed, round, cap).isEqualTo(want);
      assertThat(result.truncated()).as("seed %d round %d", seed, round)
          .isEqualTo(expected.size() > cap);
    }
  }

  private static int line(String where) {
    String[] parts = where.split(":");
    return Integer.parseInt(parts[1]);
  }

  @Test
  void walkLimitsTruncateWithTheirReason() {
    tree.file("a.txt", "hit\n").file("b.txt", "hit\n").file("c.txt", "hit\n")
        .file("d/e/f.txt", "hit\n");
    RepositorySearchResult entries =
        ops(RepositoryLimits.builder().maxEntries(2)).search(query("hit").build());
    assertThat(entries.truncatedBy()).isEqualTo(TruncationReason.ENTRIES);
    assertThat(where(entries)).containsExactly("a.txt:1:1", "b.txt:1:1");
    assertThat(entries.scannedEntries()).isEqualTo(2);

    RepositorySearchResult files =
        ops(RepositoryLimits.builder().maxFiles(1)).search(query("hit").build());
    assertThat(files.truncatedBy()).isEqualTo(TruncationReason.FILES);
    assertThat(where(files)).containsExactly("a.txt:1:1");
    assertThat(files.scannedFiles()).isEqualTo(1);

    RepositorySearchResult depth =
        ops(RepositoryLimits.builder().maxDepth(1)).search(query("hit").build());
    assertThat(depth.truncatedBy()).isEqualTo(TruncationReason.DEPTH);
    assertThat(where(depth)).containsExactly("a.txt:1:1", "b.txt:1:1", "c.txt:1:1");

    // a scan stop wins over a walk limit
    RepositorySearchResult both = ops(RepositoryLimits.builder().maxFiles(3).maxMatches(1))
        .search(query("hit").build());
    assertThat(both.truncatedBy()).isEqualTo(TruncationReason.MATCHES);
  }

  @Test
  void excludedAndHiddenNamesAreNotWalked() {
    tree.file("node_modules/m.txt", "hit\n").file("dist/d.txt", "hit\n").file(".git/g.txt", "hit\n")
        .file(".hidden/h.txt", "hit\n").file(".h.txt", "hit\n").file("src/s.txt", "hit\n");
    assertThat(where(search("hit"))).containsExactly("src/s.txt:1:1");
    assertThat(where(ops.search(query("hit").includeHidden(true).build())))
        .containsExactly(".h.txt:1:1", ".hidden/h.txt:1:1", "src/s.txt:1:1");
    // a supplied exclude list replaces the default one
    assertThat(where(ops.search(query("hit").exclude(List.of("src")).build())))
        .containsExactly("dist/d.txt:1:1", "node_modules/m.txt:1:1");
    assertThat(where(ops(RepositoryLimits.builder().exclude(List.of())).search(
        query("hit").build()))).containsExactly(
        "dist/d.txt:1:1", "node_modules/m.txt:1:1", "src/s.txt:1:1");
  }

  @Test
  void symlinksAreNeverFollowed() throws IOException {
    Path outside = Files.createDirectory(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), "hit\n");
    tree.file("real/r.txt", "hit\n")
        .link("to-file", outside.resolve("secret.txt"))
        .link("to-dir", outside)
        .link("to-inner", tree.path("real"))
        .link("loop", tree.path("loop"))
        .link("real/up", tree.root());
    RepositorySearchResult result = search("hit");
    assertThat(where(result)).containsExactly("real/r.txt:1:1");
    // real, loop, to-dir, to-file, to-inner, real/r.txt, real/up
    assertThat(result.scannedEntries()).isEqualTo(7);
    assertThat(result.scannedFiles()).isEqualTo(1);
  }

  @Test
  void startPathVariants() throws IOException {
    tree.file("src/a.txt", "hit\n").file("..foo/b.txt", "hit\n").file("sp ace/c.txt", "hit\n");
    RepositorySearchResult file = ops.search(query("hit").path("src/a.txt").build());
    assertThat(where(file)).containsExactly("src/a.txt:1:1");
    assertThat(file.scannedEntries()).isEqualTo(1);
    assertThat(file.scannedFiles()).isEqualTo(1);

    assertThat(where(ops.search(query("hit").path("..foo").build())))
        .containsExactly("..foo/b.txt:1:1");
    assertThat(where(ops.search(query("hit").path("@src").build())))
        .containsExactly("src/a.txt:1:1");
    assertThat(where(ops.search(query("hit").path("./src/").build())))
        .containsExactly("src/a.txt:1:1");
    assertThat(where(ops.search(query("hit").path("sp\u00A0ace").build())))
        .containsExactly("sp ace/c.txt:1:1");
    assertThat(where(ops.search(query("hit").path("sp\u3000ace").build())))
        .containsExactly("sp ace/c.txt:1:1");
    Path realRoot = tree.root().toRealPath();
    assertThat(where(ops.search(query("hit").path(realRoot.resolve("src").toString()).build())))
        .containsExactly("src/a.txt:1:1");
    assertThat(where(ops.search(
        query("hit").path(realRoot.resolve("sp ace").toUri().toString()).build())))
        .containsExactly("sp ace/c.txt:1:1");
    assertThat(where(ops.search(query("hit").path("src/../src").build())))
        .containsExactly("src/a.txt:1:1");
    for (String dot : new String[] {"", ".", "./"}) {
      assertThat(ops.search(query("hit").path(dot).build()).matches()).hasSize(2);
    }

    // a dangling link as start: one entry, nothing searched
    tree.link("dangling", tree.path("missing"));
    RepositorySearchResult dangling = ops.search(query("hit").path("dangling").build());
    assertThat(dangling.matches()).isEmpty();
    assertThat(dangling.scannedEntries()).isEqualTo(1);
    assertThat(dangling.scannedFiles()).isZero();
  }

  @Test
  void pathErrorsHaveExactMessages() throws IOException {
    Path outside = Files.createDirectory(temp.resolve("outside"));
    tree.file("src/a.txt", "x").link("out", outside);
    Path missingRoot = temp.resolve("nope");
    assertThatThrownBy(() -> ops.search(RepositorySearchRequest.builder(missingRoot, "x").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("workspace root is missing or unreadable: " + missingRoot.toAbsolutePath());
    assertThatThrownBy(() -> ops.search(query("x").path("../outside").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("path escapes workspace root: ../outside");
    assertThatThrownBy(() -> ops.search(query("x").path(outside.toString()).build()))
        .hasMessage("path escapes workspace root: " + outside);
    assertThatThrownBy(() -> ops.search(query("x").path("~").build()))
        .hasMessage("path escapes workspace root: ~");
    assertThatThrownBy(() -> ops.search(query("x").path("~/x").build()))
        .hasMessage("path escapes workspace root: ~/x");
    // a sibling sharing the root's name as a string prefix is outside
    Path sibling = Files.createDirectory(temp.resolve("repo2"));
    assertThatThrownBy(() -> ops.search(query("x").path(sibling.toString()).build()))
        .hasMessage("path escapes workspace root: " + sibling);
    assertThatThrownBy(() -> ops.search(query("x").path("../repo2").build()))
        .hasMessage("path escapes workspace root: ../repo2");
    assertThatThrownBy(() -> ops.search(query("x").path("out").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("path resolves outside workspace root: out");
    Path missing = tree.root().toRealPath().resolve("missing");
    assertThatThrownBy(() -> ops.search(query("x").path("missing").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("cannot search path: ENOENT: no such file or directory, lstat '"
            + missing + "'");
    assertThat(RepositoryException.CODE).isEqualTo("ERR_PRISM_REPOSITORY");
  }

  @Test
  void requestValidationHasExactMessagesInOrder() {
    tree.file("a.txt", "x");
    assertThatThrownBy(() -> ops.search(query("").mode(SearchMode.SEMANTIC).build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("unsupported search mode: semantic (literal only)");
    assertThatThrownBy(() -> ops.search(query("x").mode(SearchMode.INDEXED_LITERAL).build()))
        .hasMessage("unsupported search mode: indexed_literal (literal only)");
    assertThatThrownBy(() -> search(""))
        .isInstanceOf(RepositoryException.class).hasMessage("query must be non-empty");
    assertThatThrownBy(() -> search("x".repeat(513)))
        .hasMessage("query exceeds 512 byte pattern limit");
    // the query is checked before the path
    assertThatThrownBy(() -> ops.search(query("").path("../x").build()))
        .hasMessage("query must be non-empty");
    assertThatThrownBy(() -> ops.search(query("x").path("../x").maxMatches(0).build()))
        .hasMessage("path escapes workspace root: ../x");
    assertKnob(query("x").maxMatches(0), "maxMatches must be a positive safe integer at most 10000");
    assertKnob(query("x").maxMatches(10_001),
        "maxMatches must be a positive safe integer at most 10000");
    assertKnob(query("x").context(-1), "context must be a non-negative safe integer at most 20");
    assertKnob(query("x").context(21), "context must be a non-negative safe integer at most 20");
    assertKnob(query("x").deadlineMs(0L),
        "deadlineMs must be a positive safe integer at most 300000");
    assertKnob(query("x").deadlineMs(300_001L),
        "deadlineMs must be a positive safe integer at most 300000");
    assertThat(ops.search(query("x").maxMatches(10_000).context(20).deadlineMs(300_000L).build())
        .matches()).hasSize(1);
  }

  private void assertKnob(RepositorySearchRequest.Builder request, String message) {
    assertThatThrownBy(() -> ops.search(request.build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void alreadyAbortedSignalTruncatesInsteadOfThrowing() {
    tree.file("a.txt", "hit\n");
    RepositorySearchResult result = ops.search(query("hit").signal(AbortSignal.aborted()).build());
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    assertThat(result.matches()).isEmpty();
    RepositorySearchResult single =
        ops.search(query("hit").path("a.txt").signal(AbortSignal.aborted()).build());
    assertThat(single.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    assertThat(single.scannedEntries()).isEqualTo(1);
  }

  @Test
  void abortDuringTheScanKeepsWhatWasFound() {
    for (int i = 0; i < 5; i++) {
      tree.file("f" + i + ".txt", "hit\nmore\n");
    }
    AbortSignal signal = AbortSignal.create();
    AtomicLong calls = new AtomicLong();
    // the clock aborts the signal once the walk is over and two files were scanned
    RepositoryOperations clocked = new LocalRepositoryOperations(RepositoryLimits.defaults(),
        NativeWalk.INSTANCE, () -> {
          if (calls.incrementAndGet() == 17) {
            signal.abort();
          }
          return 0L;
        });
    RepositorySearchResult result = clocked.search(query("hit").signal(signal).build());
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    assertThat(result.matches().size()).isBetween(1, 4);
    assertThat(result.matches().get(0).path()).isEqualTo("f0.txt");
  }

  @Test
  void deadlineTruncatesWithTime() {
    for (int i = 0; i < 5; i++) {
      tree.file("f" + i + ".txt", "hit\nmore\n");
    }
    AtomicLong now = new AtomicLong();
    RepositoryOperations clocked = new LocalRepositoryOperations(RepositoryLimits.defaults(),
        NativeWalk.INSTANCE, () -> now.addAndGet(1_000_000L)); // 1 ms per reading
    RepositorySearchResult result = clocked.search(query("hit").deadlineMs(20L).build());
    assertThat(result.truncatedBy()).isEqualTo(TruncationReason.TIME);
    assertThat(result.matches().size()).isLessThan(5);
    RepositorySearchResult early = clocked.search(query("hit").deadlineMs(2L).build());
    assertThat(early.truncatedBy()).isEqualTo(TruncationReason.TIME);
    assertThat(early.matches()).isEmpty();
  }
}
