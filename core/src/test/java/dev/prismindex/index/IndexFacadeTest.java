package dev.prismindex.index;

import static dev.prismindex.index.IndexFileChangeKind.ADD;
import static dev.prismindex.index.IndexFileChangeKind.DELETE;
import static dev.prismindex.index.IndexFileChangeKind.EDIT;
import static dev.prismindex.index.IndexFileChangeKind.RENAME;
import static dev.prismindex.index.IndexTestSupport.ROOT;
import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.composite;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositorySearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The guarded facade: update, remove, status, dispose (weakness 8). */
class IndexFacadeTest {

  private final FakeBackend backend = new FakeBackend();

  private IndexFacade facade() {
    return composite(backend).index();
  }

  private IndexFacade facade(IndexLimits limits) {
    return composite(backend, b -> b.limits(limits)).index();
  }

  private static IndexFileChange change(String path, IndexFileChangeKind kind) {
    return IndexFileChange.of(path, kind);
  }

  private static List<@Nullable IndexFileChange> list(@Nullable IndexFileChange... changes) {
    return new ArrayList<>(Arrays.asList(changes));
  }

  private IndexUpdateRequest onlyUpdate() {
    assertThat(backend.updates).hasSize(1);
    assertThat(backend.removes).isEmpty();
    return backend.updates.get(0);
  }

  // --- update: revision and identities

  @ParameterizedTest
  @NullAndEmptySource
  void aMissingRevisionIsRejected(@Nullable String revision) {
    assertIndexError(() -> facade().update(new IndexUpdateRequest(null, null, revision, List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "sourceRevision is required and bounded");
  }

  @Test
  void theRevisionIsBoundedInUtf8Bytes() {
    facade().update(IndexUpdateRequest.of("a".repeat(4_096), List.of(change("x", ADD))));
    assertThat(backend.updates).hasSize(1);
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("a".repeat(4_097), List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "sourceRevision is required and bounded");
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("é".repeat(2_049), List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "sourceRevision is required and bounded");
  }

  @Test
  void identitiesAreBoundedRepositoryIdFirst() {
    String ok = "r".repeat(512);
    String tooLong = "é".repeat(257); // 514 bytes
    facade().update(new IndexUpdateRequest(ok, ok, "rev", List.of(change("x", ADD))));
    assertIndexError(() -> facade().update(new IndexUpdateRequest(tooLong, tooLong, "rev", List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "repositoryId exceeds the identity bound");
    assertIndexError(() -> facade().update(new IndexUpdateRequest(ok, tooLong, "rev", List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "worktreeId exceeds the identity bound");
  }

  @Test
  void theRevisionIsCheckedBeforeIdentitiesAndIdentitiesBeforeTheChangeList() {
    assertIndexError(() -> facade().update(new IndexUpdateRequest("x".repeat(600), null, "", null)),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "sourceRevision is required and bounded");
    assertIndexError(() -> facade().update(new IndexUpdateRequest("x".repeat(600), null, "r", null)),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "repositoryId exceeds the identity bound");
  }

  // --- update: caps

  @Test
  void aMissingChangeListIsOverTheChangeCap() {
    assertIndexError(() -> facade().update(new IndexUpdateRequest(null, null, "rev", null)),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 1000 change cap");
  }

  @Test
  void theChangeCapIsInclusive() {
    IndexFacade facade = facade(IndexLimits.builder().maxUpdateFiles(3).build());
    facade.update(IndexUpdateRequest.of("rev",
        List.of(change("a", ADD), change("b", ADD), change("c", ADD))));
    assertThat(backend.updates).hasSize(1);
    assertIndexError(() -> facade.update(IndexUpdateRequest.of("rev",
            List.of(change("a", ADD), change("b", ADD), change("c", ADD), change("d", ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 3 change cap");
  }

  @Test
  void theByteBudgetCountsRevisionAndPaths() {
    IndexFacade facade = facade(IndexLimits.builder().maxUpdateBytes(10).build());
    facade.update(IndexUpdateRequest.of("abcd", List.of(change("abcdef", ADD)))); // 4 + 6
    assertThat(backend.updates).hasSize(1);
    assertIndexError(() -> facade.update(IndexUpdateRequest.of("abcd", List.of(change("abcdefg", ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 10 byte cap");
    assertIndexError(() -> facade.update(IndexUpdateRequest.of("abcd",
            List.of(change("abc", ADD), change("abcd", EDIT)))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 10 byte cap");
  }

  @Test
  void theByteBudgetCountsIdentitiesAndOldPathsInUtf8() {
    IndexFacade facade = facade(IndexLimits.builder().maxUpdateBytes(10).build());
    assertIndexError(() -> facade.update(new IndexUpdateRequest("12345", "12345", "r", List.of())),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 10 byte cap");
    assertIndexError(() -> facade.update(IndexUpdateRequest.of("r",
            List.of(IndexFileChange.rename("abcdef", "fghi")))), // 1 + 4 + 6
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 10 byte cap");
    assertIndexError(() -> facade.update(IndexUpdateRequest.of("r", List.of(change("ééééé", ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "update exceeds the 10 byte cap");
    assertThat(backend.updates).isEmpty();
  }

  @Test
  void changeBytesMustNotBeNegative() {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(new IndexFileChange("a", ADD, null, -1L)))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "change bytes must be a non-negative finite number");
    facade().update(IndexUpdateRequest.of("r", List.of(new IndexFileChange("a", ADD, null, 0L))));
    assertThat(onlyUpdate().changes()).containsExactly(new IndexFileChange("a", ADD, null, 0L));
  }

  // --- update: paths and kinds

  @Test
  void aRenameWithoutOldPathIsAnInvalidPath() {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(change("ok", ADD), new IndexFileChange("new", RENAME, null, null)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void aChangeWithoutKindIsAnInvalidChangeKind() {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(new IndexFileChange("a", null, null, null)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid change kind");
  }

  @Test
  void aNullChangeIsAnInvalidPath() {
    assertIndexError(() -> facade().update(new IndexUpdateRequest(null, null, "r",
            list(change("a", ADD), null))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "./", "a\nb", "nul\u0000"})
  void emptyRootOrControlCharacterPathsAreInvalid(String path) {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r", List.of(change(path, ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(IndexFileChange.rename(path, "ok")))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "..", "../x", "a/../b", "a/..", "a\\b"})
  void escapingPathsAreOutsideTheRepository(String path) {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r", List.of(change(path, EDIT)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(IndexFileChange.rename(path, "ok")))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");
    assertIndexError(() -> facade().remove(IndexRemoveRequest.of(List.of(path))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void aNullPathIsInvalid() {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(new IndexFileChange(null, ADD, null, null)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
  }

  @Test
  void everythingIsValidatedBeforeAnyBackendCall() {
    assertIndexError(() -> facade().update(IndexUpdateRequest.of("r",
            List.of(change("a", ADD), change("b", DELETE), IndexFileChange.rename("c", "d"),
                change("../e", EDIT)))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported a path outside the repository");
    assertThat(backend.totalCalls()).isZero();
  }

  // --- update: normalisation

  @Test
  void oneBackendCallCarriesRevisionIdentitiesAndChanges() {
    facade().update(new IndexUpdateRequest("repo", "wt", "rev-9",
        List.of(change("a", ADD), change("b", EDIT), change("c", DELETE))));
    assertThat(onlyUpdate()).isEqualTo(new IndexUpdateRequest("repo", "wt", "rev-9",
        List.of(change("a", ADD), change("b", EDIT), change("c", DELETE))));
  }

  @Test
  void aRenameBecomesDeleteOfTheOldPathAndAddOfTheNewKeepingBytes() {
    facade().update(IndexUpdateRequest.of("r", List.of(new IndexFileChange("new.ts", RENAME, "old.ts", 42L))));
    assertThat(onlyUpdate().changes()).containsExactly(
        new IndexFileChange("old.ts", DELETE, null, null),
        new IndexFileChange("new.ts", ADD, null, 42L));
  }

  @Test
  void addThenDeleteDeletes() {
    facade().update(IndexUpdateRequest.of("r", List.of(change("x", ADD), change("x", DELETE))));
    assertThat(onlyUpdate().changes()).containsExactly(change("x", DELETE));
  }

  @Test
  void deleteThenAddAdds() {
    facade().update(IndexUpdateRequest.of("r", List.of(change("x", DELETE), change("x", ADD))));
    assertThat(onlyUpdate().changes()).containsExactly(change("x", ADD));
  }

  @Test
  void theLastChangeOfEachPathSurvivesInTheOrderOfLastOccurrence() {
    facade().update(IndexUpdateRequest.of("r", List.of(
        change("x", ADD), change("y", EDIT), change("./x", EDIT), change("z", ADD),
        change("y//", DELETE))));
    assertThat(onlyUpdate().changes()).containsExactly(
        change("x", EDIT), change("z", ADD), change("y", DELETE));
  }

  @Test
  void chainedRenamesLeaveOnlyTheFinalPath() {
    facade().update(IndexUpdateRequest.of("r", List.of(
        IndexFileChange.rename("a", "b"), IndexFileChange.rename("b", "c"))));
    assertThat(onlyUpdate().changes()).containsExactly(
        change("a", DELETE), change("b", DELETE), change("c", ADD));
  }

  @Test
  void aRenameOntoItselfIsAnAdd() {
    facade().update(IndexUpdateRequest.of("r", List.of(IndexFileChange.rename("./a", "a"))));
    assertThat(onlyUpdate().changes()).containsExactly(change("a", ADD));
  }

  @Test
  void anOldPathOnAnotherKindIsCheckedThenDropped() {
    facade().update(IndexUpdateRequest.of("r", List.of(new IndexFileChange("a", EDIT, "b", 3L))));
    assertThat(onlyUpdate().changes()).containsExactly(new IndexFileChange("a", EDIT, null, 3L));
  }

  @Test
  void aDeleteOnlyBatchStillRecordsTheRevision() {
    facade().update(new IndexUpdateRequest("repo", null, "rev-2",
        List.of(change("a", DELETE), change("b", DELETE))));
    assertThat(onlyUpdate()).isEqualTo(new IndexUpdateRequest("repo", null, "rev-2",
        List.of(change("a", DELETE), change("b", DELETE))));
  }

  @Test
  void anEmptyBatchMakesNoBackendCall() {
    facade().update(IndexUpdateRequest.of("rev", List.of()));
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void aFailingUpdateIsAFixedFailure() {
    backend.updateAction = request -> {
      throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "secret update text");
    };
    IndexException error = assertIndexError(
        () -> facade().update(IndexUpdateRequest.of("r", List.of(change("a", ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index update failed");
    assertThat(error.getCause()).hasMessage("secret update text");
  }

  @Test
  void outOfMemoryFromTheBackendPropagates() {
    OutOfMemoryError oom = new OutOfMemoryError("test");
    backend.updateAction = request -> {
      throw oom;
    };
    assertThat(catchThrowable(
        () -> facade().update(IndexUpdateRequest.of("r", List.of(change("a", ADD)))))).isSameAs(oom);
  }

  // --- remove

  @Test
  void removeNeedsAListWithinTheCap() {
    assertIndexError(() -> facade().remove(new IndexRemoveRequest(null)),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "remove exceeds the 1000 path cap");
    IndexFacade capped = facade(IndexLimits.builder().maxUpdateFiles(2).build());
    capped.remove(IndexRemoveRequest.of(List.of("a", "b")));
    assertIndexError(() -> capped.remove(IndexRemoveRequest.of(List.of("a", "b", "c"))),
        IndexErrorCode.ERR_PRISM_INDEX_LIMIT, "remove exceeds the 2 path cap");
    assertThat(backend.removes).hasSize(1);
  }

  @Test
  void removePathsAreCheckedNormalisedAndDeduplicated() {
    assertIndexError(() -> facade().remove(new IndexRemoveRequest(Arrays.asList("a", null))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
    assertIndexError(() -> facade().remove(IndexRemoveRequest.of(List.of("a", ""))),
        IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, "index reported an invalid path");
    assertThat(backend.removes).isEmpty();

    facade().remove(IndexRemoveRequest.of(List.of("./a", "b//c", "a", "d/")));
    assertThat(backend.removes).containsExactly(IndexRemoveRequest.of(List.of("a", "b/c", "d")));
  }

  @Test
  void anEmptyRemoveMakesNoBackendCall() {
    facade().remove(IndexRemoveRequest.of(Collections.emptyList()));
    assertThat(backend.totalCalls()).isZero();
  }

  @Test
  void aFailingRemoveIsAFixedFailure() {
    backend.removeAction = request -> {
      throw new IOException("secret remove text");
    };
    assertIndexError(() -> facade().remove(IndexRemoveRequest.of(List.of("a"))),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index remove failed");
  }

  // --- status

  @Test
  void statusIsACopyWithABoundedRevision() {
    IndexDiagnostics diagnostics = new IndexDiagnostics(3, 100, 5L);
    backend.statusAnswer = none -> new IndexStatus(IndexState.STALE, "rev", 7L, diagnostics);
    assertThat(facade().status()).isEqualTo(new IndexStatus(IndexState.STALE, "rev", 7L, diagnostics));

    backend.statusAnswer = none -> new IndexStatus(IndexState.READY, "x".repeat(4_097), 7L, null);
    assertThat(facade().status()).isEqualTo(new IndexStatus(IndexState.READY, null, 7L, null));
  }

  @Test
  void statusFailuresAreFixed() {
    backend.statusAnswer = none -> {
      throw new RuntimeException("secret status text");
    };
    assertIndexError(() -> facade().status(), IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index status failed");
    backend.statusAnswer = none -> null;
    assertIndexError(() -> facade().status(), IndexErrorCode.ERR_PRISM_INDEX_FAILED,
        "index reported an unknown state");
    backend.statusAnswer = none -> new IndexStatus(null, "r", 1L, null);
    assertIndexError(() -> facade().status(), IndexErrorCode.ERR_PRISM_INDEX_FAILED,
        "index reported an unknown state");
  }

  // --- dispose

  @Test
  void disposeIsIdempotent() {
    IndexFacade facade = facade();
    facade.dispose();
    facade.dispose();
    assertThat(backend.disposeCalls).hasValue(1);
  }

  @Test
  void aFailingDisposeIsAFixedFailureAndStillDisposes() {
    backend.disposeAction = none -> {
      throw new IOException("secret dispose text");
    };
    IndexFacade facade = facade();
    assertIndexError(facade::dispose, IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index dispose failed");
    facade.dispose();
    assertThat(backend.disposeCalls).hasValue(1);
    assertIndexError(facade::status, IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
  }

  @Test
  void afterDisposeIndexCallsFailAndLiteralOperationsWork() {
    FakeFallback fallback = new FakeFallback();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, fallback)
            .allowedModes(java.util.EnumSet.allOf(dev.prismindex.repository.SearchMode.class)).build());
    ops.index().dispose();
    int callsAfterDispose = backend.totalCalls();

    assertIndexError(() -> ops.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertIndexError(() -> ops.search(indexed("q").mode(dev.prismindex.repository.SearchMode.SEMANTIC).build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertIndexError(() -> ops.index().update(IndexUpdateRequest.of("r", List.of(change("a", ADD)))),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertIndexError(() -> ops.index().remove(IndexRemoveRequest.of(List.of("a"))),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertIndexError(() -> ops.index().status(),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
    assertThat(backend.totalCalls()).isEqualTo(callsAfterDispose);

    assertThat(ops.search(RepositorySearchRequest.builder(ROOT, "q").build()))
        .isSameAs(FakeFallback.SEARCH_RESULT);
    assertThat(ops.list(RepositoryListRequest.builder(ROOT).build())).isSameAs(FakeFallback.LIST_RESULT);
    assertThat(ops.glob(RepositoryGlobRequest.builder(ROOT, "*").build())).isSameAs(FakeFallback.GLOB_RESULT);
  }
}
