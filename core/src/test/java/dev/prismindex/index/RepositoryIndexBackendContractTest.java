package dev.prismindex.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryGlobResult;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositoryListResult;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.TruncationReason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link RepositoryIndexBackend} must have. A backend module subclasses this and
 * implements {@link #newBackend(Path)}; the subclass then runs every test here against its backend
 * (see {@code ScanningTestBackendContractTest} for the smallest example).
 *
 * <p>Each test writes real files under a fresh temporary repository, tells the backend about them
 * through the composite's {@link IndexFacade} (the backend must read file content from the
 * repository root on update), and queries both through an {@link IndexedRepositoryOperations} with
 * every mode enabled (so every hit must survive the composite's validation) and directly.
 *
 * <p>What is required:
 *
 * <ul>
 *   <li>state machine: {@code empty} before any update, {@code ready} after; the status attests the
 *       last revision (also after a delete-only batch), a recent {@code updatedAt}, and diagnostics
 *       whose {@code entries} is the number of indexed files;
 *   <li>updates add, edit, delete and (through the facade) rename; {@code remove} drops paths;
 *   <li>{@code indexed_literal} finds a substring case-insensitively by default and case-sensitively
 *       on request, one hit per file, with {@code line >= 1} and that line as the snippet;
 *   <li>the scope filters hits; {@code maxResults} caps them and {@code truncated} says exactly
 *       whether more exist; scores lie in [0, 1];
 *   <li>{@code semantic} is declared truthfully ({@link #supportsSemantic()});
 *   <li>after {@code dispose} the backend's calls fail with an exception.
 * </ul>
 */
public abstract class RepositoryIndexBackendContractTest {

  /** The repository the backend indexes; tests write files here. */
  @TempDir
  protected Path repository;

  /** The backend under test, created by {@link #newBackend(Path)} for each test. */
  protected RepositoryIndexBackend backend;

  /** A composite over {@link #backend} with every mode enabled and default limits. */
  protected IndexedRepositoryOperations composite;

  private int revisions;

  /** Creates a fresh, empty backend that reads file content from {@code repositoryRoot}. */
  protected abstract RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException;

  /** Whether the backend under test answers {@code semantic} queries (and must say so). */
  protected boolean supportsSemantic() {
    return false;
  }

  @BeforeEach
  public void setUpContract() throws IOException {
    backend = newBackend(repository);
    composite = IndexedRepositoryOperations.create(repository,
        IndexedRepositoryOptions.builder(backend, new NoLiteralOperations())
            .allowedModes(EnumSet.allOf(SearchMode.class))
            .requireSourceRevision(true)
            .build());
  }

  @AfterEach
  public void tearDownContract() {
    try {
      composite.index().dispose();
    } catch (IndexException alreadyFailing) {
      // a test may have disposed the backend itself
    }
  }

  // ----------------------------------------------------------------------------- state machine

  @Test
  public void isEmptyBeforeAnyUpdate() throws IOException {
    IndexStatus status = backend.status();
    assertThat(status.state()).isEqualTo(IndexState.EMPTY);
    assertThat(status.sourceRevision()).isNull();
    if (status.diagnostics() != null) {
      assertThat(status.diagnostics().entries()).isZero();
    }
    assertRefused(() -> search("anything"), IndexErrorCode.ERR_PRISM_INDEX_STALE,
        "index has no data; update it before querying");
  }

  @Test
  public void isReadyAfterAnUpdateAndAttestsRevisionTimeAndEntries() throws IOException {
    write("a.txt", "alpha\n");
    write("dir/b.txt", "beta\n");
    long before = System.currentTimeMillis();
    update("rev-1", add("a.txt"), add("dir/b.txt"));
    long after = System.currentTimeMillis();

    IndexStatus status = backend.status();
    assertThat(status.state()).isEqualTo(IndexState.READY);
    assertThat(status.sourceRevision()).isEqualTo("rev-1");
    assertThat(status.updatedAt()).isNotNull().isBetween(before - 1_000, after + 1_000);
    assertThat(status.diagnostics()).isNotNull();
    assertThat(status.diagnostics().entries()).isEqualTo(2);

    RepositorySearchResult result = search("alpha");
    assertThat(result.indexed().state()).isEqualTo(IndexState.READY);
    assertThat(result.indexed().sourceRevision()).isEqualTo("rev-1");
    assertThat(result.untrustedIndex()).isTrue();
  }

  @Test
  public void anEmptyRepositoryUpdateIsStillReady() throws IOException {
    write("a.txt", "alpha\n");
    update("rev-1", add("a.txt"));
    update("rev-2", IndexFileChange.of("a.txt", IndexFileChangeKind.DELETE));
    assertThat(backend.status().state()).isEqualTo(IndexState.READY);
    assertThat(search("alpha").matches()).isEmpty();
  }

  // ----------------------------------------------------------------------------- updates

  @Test
  public void anAddedFileIsFound() throws IOException {
    write("src/Main.java", "class Main {\n  // findme here\n}\n");
    update("rev-1", add("src/Main.java"));
    assertThat(paths(search("findme"))).containsExactly("src/Main.java");
  }

  @Test
  public void anEditReplacesTheOldContent() throws IOException {
    write("a.txt", "old words\n");
    update("rev-1", add("a.txt"));
    write("a.txt", "new words\n");
    update("rev-2", IndexFileChange.of("a.txt", IndexFileChangeKind.EDIT));

    assertThat(search("old words").matches()).isEmpty();
    assertThat(paths(search("new words"))).containsExactly("a.txt");
    assertThat(backend.status().sourceRevision()).isEqualTo("rev-2");
  }

  @Test
  public void aDeleteDropsTheFileAndADeleteOnlyBatchRecordsTheRevision() throws IOException {
    write("a.txt", "needle\n");
    write("b.txt", "needle\n");
    update("rev-1", add("a.txt"), add("b.txt"));
    Files.delete(repository.resolve("a.txt"));
    update("rev-2", IndexFileChange.of("a.txt", IndexFileChangeKind.DELETE));

    assertThat(paths(search("needle"))).containsExactly("b.txt");
    IndexStatus status = backend.status();
    assertThat(status.sourceRevision()).isEqualTo("rev-2");
    assertThat(status.diagnostics().entries()).isEqualTo(1);
  }

  @Test
  public void removeDropsPaths() throws IOException {
    write("a.txt", "needle\n");
    write("b/c.txt", "needle\n");
    update("rev-1", add("a.txt"), add("b/c.txt"));
    composite.index().remove(IndexRemoveRequest.of(List.of("b/c.txt")));

    assertThat(paths(search("needle"))).containsExactly("a.txt");
    assertThat(backend.status().diagnostics().entries()).isEqualTo(1);
  }

  @Test
  public void removingNothingChangesNothing() throws IOException {
    write("a.txt", "needle\n");
    update("rev-1", add("a.txt"));
    backend.remove(IndexRemoveRequest.of(List.of()));
    assertThat(paths(search("needle"))).containsExactly("a.txt");
  }

  @Test
  public void aRenameThroughTheFacadeMovesTheFile() throws IOException {
    write("old/name.txt", "moving needle\n");
    update("rev-1", add("old/name.txt"));
    Files.createDirectories(repository.resolve("new"));
    Files.move(repository.resolve("old/name.txt"), repository.resolve("new/name.txt"));
    update("rev-2", IndexFileChange.rename("old/name.txt", "new/name.txt"));

    assertThat(paths(search("moving needle"))).containsExactly("new/name.txt");
    assertThat(backend.status().diagnostics().entries()).isEqualTo(1);
  }

  // ----------------------------------------------------------------------------- indexed_literal

  @Test
  public void findsASubstringCaseInsensitivelyByDefaultWithItsLine() throws IOException {
    write("docs/readme.md", "# Title\nSome intro.\nThe Quick Brown Fox jumps.\nEnd.\n");
    update("rev-1", add("docs/readme.md"));

    RepositorySearchResult result = search("quick brown");
    assertThat(result.matches()).hasSize(1);
    RepositorySearchMatch match = result.matches().get(0);
    assertThat(match.path()).isEqualTo("docs/readme.md");
    assertThat(match.line()).isEqualTo(3);
    assertThat(match.endLine()).isGreaterThanOrEqualTo(3);
    assertThat(match.text()).isEqualTo("The Quick Brown Fox jumps.");
    assertThat(match.column()).isIn(0, 5);
    assertThat(match.score()).isBetween(0.0, 1.0);
  }

  @Test
  public void matchesCaseSensitivelyOnRequest() throws IOException {
    write("a.txt", "Hello World\n");
    update("rev-1", add("a.txt"));

    assertThat(search(request("hello world").caseSensitive(true)).matches()).isEmpty();
    assertThat(paths(search(request("Hello World").caseSensitive(true)))).containsExactly("a.txt");
    assertThat(paths(search("HELLO WORLD"))).containsExactly("a.txt");
  }

  @Test
  public void theSnippetIsALineThatContainsTheQuery() throws IOException {
    write("a.txt", "zero\nmiddle needle line\nanother needle\n");
    update("rev-1", add("a.txt"));

    RepositorySearchMatch match = search("NEEDLE").matches().get(0);
    List<String> lines = List.of("zero", "middle needle line", "another needle");
    assertThat(match.line()).isBetween(1, 3);
    assertThat(match.text()).isEqualTo(lines.get(match.line() - 1));
    assertThat(match.text().toLowerCase(Locale.ROOT)).contains("needle");
  }

  @Test
  public void reportsOneHitPerFile() throws IOException {
    write("a.txt", "needle one\nneedle two\nneedle three\n");
    write("b.txt", "needle\n");
    update("rev-1", add("a.txt"), add("b.txt"));

    IndexQueryResult direct = query("needle", null, 10);
    assertThat(direct.hits()).extracting(IndexSearchHit::path)
        .containsExactlyInAnyOrder("a.txt", "b.txt");
    assertThat(direct.truncated()).isFalse();
  }

  @Test
  public void aMissOrUnknownTextFindsNothing() throws IOException {
    write("a.txt", "something\n");
    update("rev-1", add("a.txt"));
    RepositorySearchResult result = search("absent-text");
    assertThat(result.matches()).isEmpty();
    assertThat(result.truncated()).isFalse();
  }

  @Test
  public void multiByteAndLongLinesSurviveValidation() throws IOException {
    String longLine = "needle " + "ünïcødé €😀 ".repeat(800);
    write("u.txt", "first\n" + longLine + "\n");
    update("rev-1", add("u.txt"));

    RepositorySearchMatch match = search("needle").matches().get(0);
    assertThat(match.line()).isEqualTo(2);
    assertThat(longLine).startsWith(match.text());
    assertThat(match.text().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(IndexLimits.DEFAULT_MAX_INDEX_SNIPPET_BYTES);
  }

  // ----------------------------------------------------------------------------- scope, cap, scores

  @Test
  public void theScopeFiltersHits() throws IOException {
    for (String path : List.of("src/a.txt", "src/sub/b.txt", "srcx/c.txt", "lib/d.txt", "src.txt")) {
      write(path, "needle\n");
    }
    update("rev-1", add("src/a.txt"), add("src/sub/b.txt"), add("srcx/c.txt"), add("lib/d.txt"),
        add("src.txt"));

    assertThat(paths(search(request("needle").path("src"))))
        .containsExactlyInAnyOrder("src/a.txt", "src/sub/b.txt");
    assertThat(paths(search(request("needle").path("src/sub/")))).containsExactly("src/sub/b.txt");
    assertThat(paths(search(request("needle").path("lib/d.txt")))).containsExactly("lib/d.txt");
    assertThat(paths(search(request("needle").path(".")))).hasSize(5);

    assertThat(query("needle", "src", 10).hits()).extracting(IndexSearchHit::path)
        .containsExactlyInAnyOrder("src/a.txt", "src/sub/b.txt");
  }

  @Test
  public void theCapLimitsHitsAndTruncatedSaysWhetherMoreExist() throws IOException {
    for (int i = 0; i < 5; i++) {
      write("f" + i + ".txt", "needle " + i + "\n");
      update("rev-" + i, add("f" + i + ".txt"));
    }

    RepositorySearchResult capped = search(request("needle").maxMatches(2));
    assertThat(capped.matches()).hasSize(2);
    assertThat(capped.truncatedBy()).isEqualTo(TruncationReason.INDEX);

    RepositorySearchResult all = search(request("needle").maxMatches(10));
    assertThat(all.matches()).hasSize(5);
    assertThat(all.truncated()).isFalse();

    IndexQueryResult directCapped = query("needle", null, 2);
    assertThat(directCapped.hits()).hasSizeLessThanOrEqualTo(2);
    assertThat(directCapped.truncated()).isTrue();
    IndexQueryResult directExact = query("needle", null, 5);
    assertThat(directExact.hits()).hasSize(5);
    assertThat(directExact.truncated()).isFalse();
  }

  @Test
  public void scoresLieBetweenZeroAndOne() throws IOException {
    write("a.txt", "needle\n");
    write("b.txt", "needle needle needle\n");
    write("c.txt", "a needle in a haystack\n");
    update("rev-1", add("a.txt"), add("b.txt"), add("c.txt"));

    for (IndexSearchHit hit : query("needle", null, 10).hits()) {
      assertThat(hit.score()).isBetween(0.0, 1.0);
    }
    assertThat(search("needle").matches()).hasSize(3);
  }

  // ----------------------------------------------------------------------------- capabilities

  @Test
  public void theSemanticCapabilityIsDeclaredTruthfully() throws IOException {
    write("animals.txt", "the quick brown fox jumps over the lazy dog\n");
    update("rev-1", add("animals.txt"));
    assertThat(backend.capabilities()).isNotNull();
    assertThat(backend.capabilities().semantic()).isEqualTo(supportsSemantic());

    RepositorySearchRequest semantic = request("quick brown fox").mode(SearchMode.SEMANTIC).build();
    if (supportsSemantic()) {
      RepositorySearchResult result = composite.search(semantic);
      assertThat(paths(result)).contains("animals.txt");
      assertThat(result.indexed().mode()).isEqualTo(SearchMode.SEMANTIC);
    } else {
      assertRefused(() -> composite.search(semantic), IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
          "semantic search is not supported by this index backend");
    }
  }

  // ----------------------------------------------------------------------------- dispose

  @Test
  public void afterDisposeCallsFail() throws IOException {
    write("a.txt", "needle\n");
    update("rev-1", add("a.txt"));
    backend.dispose();

    assertThatThrownBy(() -> query("needle", null, 10)).isInstanceOf(Exception.class);
    assertThatThrownBy(() -> backend.status()).isInstanceOf(Exception.class);
    assertThatThrownBy(() -> backend.update(IndexUpdateRequest.of("rev-2",
        List.of(IndexFileChange.of("a.txt", IndexFileChangeKind.EDIT))))).isInstanceOf(Exception.class);
  }

  @Test
  public void afterDisposeThroughTheFacadeTheCompositeRefuses() throws IOException {
    write("a.txt", "needle\n");
    update("rev-1", add("a.txt"));
    composite.index().dispose();

    assertRefused(() -> search("needle"), IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertThatThrownBy(() -> backend.status()).isInstanceOf(Exception.class);
  }

  // ----------------------------------------------------------------------------- helpers

  /** Writes {@code content} (UTF-8) to {@code path} under the repository, creating directories. */
  protected void write(String path, String content) throws IOException {
    Path file = repository.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  /** An ADD change for {@code path}. */
  protected static IndexFileChange add(String path) {
    return IndexFileChange.of(path, IndexFileChangeKind.ADD);
  }

  /** Sends {@code changes} at {@code revision} through the composite's facade. */
  protected void update(String revision, IndexFileChange... changes) {
    revisions++;
    composite.index().update(new IndexUpdateRequest("contract-repo", "wt-" + revisions, revision,
        List.of(changes)));
  }

  /** An {@code indexed_literal} request for {@code query} over the repository. */
  protected RepositorySearchRequest.Builder request(String query) {
    return RepositorySearchRequest.builder(repository, query).mode(SearchMode.INDEXED_LITERAL);
  }

  /** Searches through the composite (so the hits are validated). */
  protected RepositorySearchResult search(String query) {
    return search(request(query));
  }

  /** Searches through the composite (so the hits are validated). */
  protected RepositorySearchResult search(RepositorySearchRequest.Builder request) {
    return composite.search(request.build());
  }

  /** Queries the backend directly, without the composite. */
  protected IndexQueryResult query(String text, @Nullable String scope, int maxResults)
      throws IOException {
    IndexQueryResult result = backend.search(new IndexQuery(text, SearchMode.INDEXED_LITERAL, scope,
        maxResults, false, AbortSignal.create(), 10_000));
    assertThat(result).isNotNull();
    assertThat(result.hits()).isNotNull().doesNotContainNull();
    Set<String> distinct = new HashSet<>();
    for (IndexSearchHit hit : result.hits()) {
      assertThat(distinct.add(hit.path())).as("distinct path %s", hit.path()).isTrue();
    }
    return result;
  }

  /** Asserts that {@code call} fails with an {@link IndexException} of this code and message. */
  protected static void assertRefused(ThrowingCallable call, IndexErrorCode code, String message) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(IndexException.class).hasMessage(message);
    assertThat(((IndexException) thrown).code()).isEqualTo(code);
  }

  /** The paths of a result, in order. */
  protected static List<String> paths(RepositorySearchResult result) {
    return result.matches().stream().map(RepositorySearchMatch::path).toList();
  }

  /** The contract drives index modes only; literal operations are another module's concern. */
  private static final class NoLiteralOperations implements RepositoryOperations {
    @Override
    public RepositorySearchResult search(RepositorySearchRequest request) {
      throw new UnsupportedOperationException("literal search is not part of the backend contract");
    }

    @Override
    public RepositoryListResult list(RepositoryListRequest request) {
      throw new UnsupportedOperationException("list is not part of the backend contract");
    }

    @Override
    public RepositoryGlobResult glob(RepositoryGlobRequest request) {
      throw new UnsupportedOperationException("glob is not part of the backend contract");
    }
  }
}
