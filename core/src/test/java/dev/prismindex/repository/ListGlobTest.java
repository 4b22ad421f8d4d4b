package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListGlobTest {

  @TempDir Path temp;
  TestTree tree;
  RepositoryOperations ops = RepositoryOperations.local(RepositoryLimits.defaults());

  @BeforeEach
  void setUp() throws IOException {
    tree = new TestTree(Files.createDirectory(temp.resolve("repo")));
  }

  RepositoryListRequest.Builder list() {
    return RepositoryListRequest.builder(tree.root());
  }

  RepositoryGlobRequest.Builder glob(String pattern) {
    return RepositoryGlobRequest.builder(tree.root(), pattern);
  }

  static List<String> paths(RepositoryListResult result) {
    List<String> out = new ArrayList<>();
    for (RepoListEntry entry : result.entries()) {
      out.add(entry.path());
    }
    return out;
  }

  @Test
  void aGlobsWalkAndPageAreTheListingItsBuilderDescribes() {
    AbortSignal signal = AbortSignal.create();
    RepositoryGlobRequest request = glob("*.txt").path("b").includeHidden(true)
        .exclude(List.of("x")).maxDepth(3).maxResults(7).offset(2).signal(signal)
        .deadlineMs(900L).braceExpansion(true).build();
    assertThat(request.listing()).isEqualTo(list().path("b").includeHidden(true)
        .exclude(List.of("x")).maxDepth(3).maxResults(7).offset(2).signal(signal)
        .deadlineMs(900L).build());
    assertThat(request.pattern()).isEqualTo("*.txt");
    assertThat(request.braceExpansion()).isTrue();
  }

  @Test
  void listIsBreadthFirstAndSortedByUtf16WithinADirectory() {
    tree.file("b/x.txt", "xx").file("b/a/deep.txt", "d").file("a.txt", "abc").file("Z.txt", "")
        .file("é.txt", "").file("😀.txt", "").file("ｚ.txt", "").file("c/y.txt", "");
    RepositoryListResult result = ops.list(list().build());
    assertThat(paths(result)).containsExactly("Z.txt", "a.txt", "b", "c", "é.txt", "😀.txt",
        "ｚ.txt", "b/a", "b/x.txt", "c/y.txt", "b/a/deep.txt");
    assertThat(result.truncated()).isFalse();
    assertThat(result.nextOffset()).isNull();
    assertThat(result.offset()).isZero();
    assertThat(result.scannedEntries()).isEqualTo(11);
    assertThat(result.scannedFiles()).isEqualTo(8);
    RepoListEntry file = result.entries().get(1);
    assertThat(file).isEqualTo(new RepoListEntry("a.txt", RepoEntryKind.FILE, 3L));
    assertThat(result.entries().get(2)).isEqualTo(new RepoListEntry("b", RepoEntryKind.DIRECTORY, null));
  }

  @Test
  void listReportsSymlinksWithoutFollowingThem() throws IOException {
    Path outside = Files.createDirectory(temp.resolve("outside"));
    Files.writeString(outside.resolve("o.txt"), "o");
    tree.file("d/f.txt", "f").link("ln-dir", outside).link("ln-file", outside.resolve("o.txt"))
        .link("ln-loop", tree.path("ln-loop")).link("d/ln-self", tree.path("d"));
    RepositoryListResult result = ops.list(list().build());
    assertThat(result.entries()).containsExactly(
        new RepoListEntry("d", RepoEntryKind.DIRECTORY, null),
        new RepoListEntry("ln-dir", RepoEntryKind.SYMLINK, null),
        new RepoListEntry("ln-file", RepoEntryKind.SYMLINK, null),
        new RepoListEntry("ln-loop", RepoEntryKind.SYMLINK, null),
        new RepoListEntry("d/f.txt", RepoEntryKind.FILE, 1L),
        new RepoListEntry("d/ln-self", RepoEntryKind.SYMLINK, null));
    assertThat(result.scannedFiles()).isEqualTo(1);
  }

  @Test
  void listPagesWithOffsetAndNextOffset() {
    for (String name : new String[] {"a", "b", "c", "d", "e"}) {
      tree.file(name, "");
    }
    RepositoryListResult first = ops.list(list().maxResults(2).build());
    assertThat(paths(first)).containsExactly("a", "b");
    assertThat(first.truncatedBy()).isEqualTo(TruncationReason.RESULTS);
    assertThat(first.nextOffset()).isEqualTo(2);
    RepositoryListResult second = ops.list(list().maxResults(2).offset(2).build());
    assertThat(paths(second)).containsExactly("c", "d");
    assertThat(second.nextOffset()).isEqualTo(4);
    assertThat(second.offset()).isEqualTo(2);
    RepositoryListResult last = ops.list(list().maxResults(2).offset(4).build());
    assertThat(paths(last)).containsExactly("e");
    assertThat(last.truncated()).isFalse();
    assertThat(last.nextOffset()).isNull();
    // a page that is exactly full with nothing after it is complete
    RepositoryListResult exact = ops.list(list().maxResults(5).build());
    assertThat(exact.truncated()).isFalse();
    RepositoryListResult beyond = ops.list(list().offset(9).build());
    assertThat(beyond.entries()).isEmpty();
    assertThat(beyond.truncated()).isFalse();
    assertThat(beyond.scannedEntries()).isEqualTo(5);
    // the limits' default page size applies when the request has none
    RepositoryListResult small = RepositoryOperations.local(
        RepositoryLimits.builder().maxResults(3).build()).list(list().build());
    assertThat(small.nextOffset()).isEqualTo(3);
  }

  @Test
  void listWalkLimits() {
    tree.file("a", "").file("b", "").file("c/d", "").file("c/e/f", "");
    RepositoryListResult entries = RepositoryOperations.local(
        RepositoryLimits.builder().maxEntries(2).build()).list(list().build());
    assertThat(paths(entries)).containsExactly("a", "b");
    assertThat(entries.truncatedBy()).isEqualTo(TruncationReason.ENTRIES);
    assertThat(entries.nextOffset()).isEqualTo(2);

    RepositoryListResult files = RepositoryOperations.local(
        RepositoryLimits.builder().maxFiles(2).build()).list(list().build());
    assertThat(paths(files)).containsExactly("a", "b", "c");
    assertThat(files.truncatedBy()).isEqualTo(TruncationReason.FILES);

    // maxDepth 1: c/e would need depth 2 for its children, so the whole walk stops there
    RepositoryListResult depth = ops.list(list().maxDepth(1).build());
    assertThat(paths(depth)).containsExactly("a", "b", "c", "c/d", "c/e");
    assertThat(depth.truncatedBy()).isEqualTo(TruncationReason.DEPTH);
    assertThat(depth.nextOffset()).isEqualTo(5);
    assertThat(ops.list(list().maxDepth(2).build()).truncated()).isFalse();
  }

  @Test
  void listOfANonDirectoryStartIsThatEntry() {
    tree.file("src/a.txt", "12345").link("dangling", tree.path("nothing"));
    RepositoryListResult file = ops.list(list().path("src/a.txt").build());
    assertThat(file.entries()).containsExactly(new RepoListEntry("src/a.txt", RepoEntryKind.FILE, 5L));
    assertThat(file.scannedEntries()).isEqualTo(1);
    assertThat(file.scannedFiles()).isEqualTo(1);
    assertThat(file.nextOffset()).isNull();
    assertThat(ops.list(list().path("src/a.txt").offset(1).build()).entries()).isEmpty();
    RepositoryListResult link = ops.list(list().path("dangling").build());
    assertThat(link.entries()).containsExactly(
        new RepoListEntry("dangling", RepoEntryKind.SYMLINK, null));
    assertThat(link.scannedFiles()).isZero();
    RepositoryListResult scoped = ops.list(list().path("src").build());
    assertThat(paths(scoped)).containsExactly("src/a.txt");
  }

  @Test
  void listErrorsAreExact() throws IOException {
    tree.file("a", "");
    Path missing = tree.root().toRealPath().resolve("missing");
    assertThatThrownBy(() -> ops.list(list().path("missing").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("cannot open path: ENOENT: no such file or directory, lstat '" + missing + "'");
    assertThatThrownBy(() -> ops.list(list().path("../x").build()))
        .hasMessage("path escapes workspace root: ../x");
    assertKnob(list().maxResults(0), "maxResults must be a positive safe integer at most 10000");
    assertKnob(list().maxResults(10_001),
        "maxResults must be a positive safe integer at most 10000");
    assertKnob(list().offset(-1), "offset must be a non-negative safe integer at most 100000");
    assertKnob(list().offset(100_001), "offset must be a non-negative safe integer at most 100000");
    assertKnob(list().maxDepth(0), "maxDepth must be a positive safe integer at most 128");
    assertKnob(list().maxDepth(129), "maxDepth must be a positive safe integer at most 128");
    assertKnob(list().deadlineMs(0L), "deadlineMs must be a positive safe integer at most 300000");
    assertKnob(list().deadlineMs(300_001L),
        "deadlineMs must be a positive safe integer at most 300000");
    assertThat(ops.list(list().maxResults(10_000).offset(100_000).maxDepth(128)
        .deadlineMs(300_000L).build()).entries()).isEmpty();
  }

  private void assertKnob(RepositoryListRequest.Builder request, String message) {
    assertThatThrownBy(() -> ops.list(request.build()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void startDirectoryThatCannotBeOpenedIsAnError() throws IOException {
    Path start = tree.root().toRealPath();
    RepoWalk.Request request = new RepoWalk.Request(start, start, ".", false, Set.of(), 4, 10, 10,
        OperationGuard.start(null, 1_000, System::nanoTime));
    assertThatThrownBy(() -> BreadthFirstWalk.run(request, (dir, rel) -> {
      throw new NoSuchFileException(dir.toString());
    }, entry -> true))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("cannot open directory: ENOENT: no such file or directory, scandir '"
            + start + "'");
    // an unreadable subdirectory is skipped silently
    tree.file("a/x", "").file("b/y", "");
    List<String> seen = new ArrayList<>();
    BreadthFirstWalk.run(request, (dir, rel) -> {
      if (rel.equals("a")) {
        throw new java.nio.file.AccessDeniedException(dir.toString());
      }
      return NativeWalkAccess.list(dir);
    }, entry -> seen.add(entry.path()));
    assertThat(seen).containsExactly("a", "b", "b/y");
  }

  /** Lists a directory like the native walk does. */
  static final class NativeWalkAccess {
    static List<String> list(Path dir) throws IOException {
      try (var stream = Files.list(dir)) {
        return stream.map(p -> p.getFileName().toString()).toList();
      }
    }
  }

  @Test
  void abortAndDeadlineReturnPartialPages() {
    for (String name : new String[] {"a", "b", "c", "d", "e"}) {
      tree.file(name, "");
    }
    RepositoryListResult aborted = ops.list(list().signal(AbortSignal.aborted()).build());
    assertThat(aborted.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    assertThat(aborted.entries()).isEmpty();
    assertThat(aborted.nextOffset()).isNull();
    RepositoryListResult abortedLater =
        ops.list(list().offset(2).signal(AbortSignal.aborted()).build());
    assertThat(abortedLater.nextOffset()).isEqualTo(2);

    AbortSignal signal = AbortSignal.create();
    AtomicLong calls = new AtomicLong();
    RepositoryOperations clocked = new LocalRepositoryOperations(RepositoryLimits.defaults(),
        NativeWalk.INSTANCE, () -> {
          if (calls.incrementAndGet() == 5) {
            signal.abort();
          }
          return 0L;
        });
    RepositoryListResult partial = clocked.list(list().signal(signal).build());
    assertThat(partial.truncatedBy()).isEqualTo(TruncationReason.ABORT);
    assertThat(paths(partial)).containsExactly("a", "b");
    assertThat(partial.nextOffset()).isEqualTo(2);

    AtomicLong now = new AtomicLong();
    RepositoryOperations slow = new LocalRepositoryOperations(RepositoryLimits.defaults(),
        NativeWalk.INSTANCE, () -> now.addAndGet(1_000_000L));
    RepositoryListResult timed = slow.list(list().deadlineMs(2L).build());
    assertThat(timed.truncatedBy()).isEqualTo(TruncationReason.TIME);
    assertThat(timed.nextOffset()).isEqualTo(timed.entries().size());
    RepositoryGlobResult globTimed = slow.glob(glob("**").deadlineMs(4L).build());
    assertThat(globTimed.truncatedBy()).isEqualTo(TruncationReason.TIME);
    assertThat(globTimed.nextOffset()).isEqualTo(globTimed.paths().size());
    assertThat(ops.glob(glob("**").signal(AbortSignal.aborted()).build()).truncatedBy())
        .isEqualTo(TruncationReason.ABORT);
  }

  @Test
  void globMatchesFilesByTheGitignoreRules() {
    tree.file("src/Main.java", "").file("src/util/Util.java", "").file("src/readme.md", "")
        .file("Top.java", "").file(".hidden/H.java", "").dir("src/dir.java");
    RepositoryGlobResult all = ops.glob(glob("**/*.java").build());
    assertThat(all.paths()).containsExactly("Top.java", "src/Main.java", "src/util/Util.java");
    assertThat(all.scannedFiles()).isEqualTo(4);
    assertThat(all.scannedEntries()).isEqualTo(7);
    assertThat(all.truncated()).isFalse();
    // scoped walks still match against root-relative paths
    assertThat(ops.glob(glob("src/*.java").path("src").build()).paths())
        .containsExactly("src/Main.java");
    // a glob without a slash matches a name at any depth; a leading slash anchors it
    assertThat(ops.glob(glob("*.java").path("src").build()).paths())
        .containsExactly("src/Main.java", "src/util/Util.java");
    assertThat(ops.glob(glob("*.java").build()).paths())
        .containsExactly("Top.java", "src/Main.java", "src/util/Util.java");
    assertThat(ops.glob(glob("/*.java").build()).paths()).containsExactly("Top.java");
    // a directory selects every file below it; a class; a leading ! selects the rest
    assertThat(ops.glob(glob("util/").build()).paths()).containsExactly("src/util/Util.java");
    assertThat(ops.glob(glob("[MT]*.java").build()).paths())
        .containsExactly("Top.java", "src/Main.java");
    assertThat(ops.glob(glob("!*.java").build()).paths()).containsExactly("src/readme.md");
    assertThat(ops.glob(glob("!src/").braceExpansion(true).build()).paths())
        .containsExactly("Top.java");
    assertThat(ops.glob(glob("**/*.java").includeHidden(true).build()).paths())
        .containsExactly("Top.java", ".hidden/H.java", "src/Main.java", "src/util/Util.java");
    // a single-file start is returned when it matches
    assertThat(ops.glob(glob("**/*.java").path("src/Main.java").build()).paths())
        .containsExactly("src/Main.java");
    assertThat(ops.glob(glob("*.md").path("src/Main.java").build()).paths()).isEmpty();
    assertThat(ops.glob(glob("**").path("src/Main.java").offset(1).build()).paths()).isEmpty();
  }

  @Test
  void globPagesOverMatchedFilesOnly() {
    for (int i = 0; i < 5; i++) {
      tree.file("m" + i + ".md", "").file("t" + i + ".txt", "");
    }
    RepositoryGlobResult first = ops.glob(glob("*.txt").maxResults(2).build());
    assertThat(first.paths()).containsExactly("t0.txt", "t1.txt");
    assertThat(first.truncatedBy()).isEqualTo(TruncationReason.RESULTS);
    assertThat(first.nextOffset()).isEqualTo(2);
    RepositoryGlobResult next = ops.glob(glob("*.txt").maxResults(2).offset(2).build());
    assertThat(next.paths()).containsExactly("t2.txt", "t3.txt");
    assertThat(next.nextOffset()).isEqualTo(4);
    RepositoryGlobResult last = ops.glob(glob("*.txt").maxResults(2).offset(4).build());
    assertThat(last.paths()).containsExactly("t4.txt");
    assertThat(last.truncated()).isFalse();
    assertThat(last.nextOffset()).isNull();
    assertThat(ops.glob(glob("*.txt").maxResults(5).build()).truncated()).isFalse();
  }

  @Test
  void globPatternErrorsAreExactAndComeFirst() {
    tree.file("a.ts", "").file("b.tsx", "").file("c.js", "");
    assertThatThrownBy(() -> ops.glob(glob("").path("../x").build()))
        .isInstanceOf(RepositoryException.class).hasMessage("pattern must be non-empty");
    assertThatThrownBy(() -> ops.glob(glob("é".repeat(257)).build()))
        .hasMessage("pattern exceeds 512 byte pattern limit");
    assertThatThrownBy(() -> ops.glob(glob("*.{ts,tsx}").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("brace expansion is not supported in glob patterns "
            + "(set braceExpansion: true to enable the bounded expansion)");
    assertThatThrownBy(() -> ops.glob(glob("a}").build()))
        .hasMessage("brace expansion is not supported in glob patterns "
            + "(set braceExpansion: true to enable the bounded expansion)");
    assertThat(ops.glob(glob("*.{ts,tsx}").braceExpansion(true).build()).paths())
        .containsExactly("a.ts", "b.tsx");
    assertThatThrownBy(() -> ops.glob(glob("{a").braceExpansion(true).build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessage("unbalanced brace expansion in pattern: {a");
    assertThatThrownBy(() -> ops.glob(glob("{a,{b}}").braceExpansion(true).build()))
        .hasMessage("nested brace expansion is not supported in pattern: {a,{b}}");
    assertThatThrownBy(() -> ops.glob(glob("x{}").braceExpansion(true).build()))
        .hasMessage("empty brace expansion in pattern: x{}");
    assertThat(ops.glob(glob("!*.{ts,tsx}").braceExpansion(true).build()).paths())
        .containsExactly("c.js");
    assertThatThrownBy(() -> ops.glob(glob("[a-").build()))
        .isInstanceOf(RepositoryException.class)
        .hasMessageStartingWith("invalid glob '[a-': an unclosed [");
    assertThatThrownBy(() -> ops.glob(glob("{a,b}".repeat(8)).braceExpansion(true).build()))
        .hasMessage("brace expansion exceeds 128 alternative limit");
    RepositoryOperations tight =
        RepositoryOperations.local(RepositoryLimits.builder().maxPatternBytes(4).build());
    assertThatThrownBy(() -> tight.glob(glob("*.txt").build()))
        .hasMessage("pattern exceeds 4 byte pattern limit");
    assertThatThrownBy(() -> ops.glob(glob("*").maxResults(0).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxResults must be a positive safe integer at most 10000");
    assertThatThrownBy(() -> ops.glob(glob("*").offset(100_001).build()))
        .hasMessage("offset must be a non-negative safe integer at most 100000");
    assertThatThrownBy(() -> ops.glob(glob("*").maxDepth(129).build()))
        .hasMessage("maxDepth must be a positive safe integer at most 128");
  }
}
