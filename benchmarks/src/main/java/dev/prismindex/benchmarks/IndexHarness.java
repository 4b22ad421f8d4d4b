package dev.prismindex.benchmarks;

import dev.prismindex.index.InMemoryIndex;
import dev.prismindex.index.InMemoryIndex.ContentSource;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexLimits;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.index.IndexedRepositoryOptions;
import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * An {@link InMemoryIndex} behind the full {@link IndexedRepositoryOperations} composite, as a
 * host would run it: every mode enabled, a source revision required, default limits except the
 * stale window (raised to its 5-minute maximum so a long measurement is not refused as stale; {@link
 * #refresh()} re-attests freshness between iterations). Every update goes through the facade (its
 * validators and 1 000-change cap), every query through the composite (status read, freshness gate,
 * deadline thread, hit validation).
 */
public final class IndexHarness implements AutoCloseable {

  /** The revision counter of this harness's updates. */
  private int revision;

  private final Path root;
  private final InMemoryIndex backend;
  private final IndexedRepositoryOperations operations;
  private final @Nullable String refreshPath;

  private IndexHarness(Path root, InMemoryIndex backend, @Nullable String refreshPath) {
    this.root = root;
    this.backend = backend;
    this.refreshPath = refreshPath;
    this.operations = composite(root, backend, EnumSet.allOf(SearchMode.class));
  }

  /**
   * The composite over {@code backend} as the benchmarks run it: {@code modes} allowed, a source
   * revision required, default limits but the stale window, raised to its maximum.
   */
  static IndexedRepositoryOperations composite(Path root, RepositoryIndexBackend backend,
      Set<SearchMode> modes) {
    return IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(backend,
                RepositoryOperations.local(RepositoryLimits.defaults()))
            .allowedModes(modes)
            .requireSourceRevision(true)
            .limits(IndexLimits.builder()
                .staleMaxAgeMs(IndexLimits.HARD_MAX_INDEX_STALE_MAX_AGE_MS).build())
            .build());
  }

  /** A harness over an empty temporary directory whose files come from {@code source}. */
  public static IndexHarness create(ContentSource source, @Nullable String refreshPath) {
    try {
      Path root = Files.createTempDirectory("prism-bench");
      return new IndexHarness(root,
          InMemoryIndex.builder(root).contentSource(source).build(), refreshPath);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A harness over {@code source} holding its files {@code 0..files-1} (added through the facade
   * in updates of 1 000), re-attested by an edit of file 0.
   */
  public static IndexHarness loaded(ContentSource source, IntFunction<String> paths, int files) {
    IndexHarness harness = create(source, paths.apply(0));
    harness.load(paths, files, 1_000);
    return harness;
  }

  /** A harness over an existing directory, reading its files. */
  public static IndexHarness onDisk(Path root) {
    try {
      return new IndexHarness(root, InMemoryIndex.builder(root).build(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path root() {
    return root;
  }

  public InMemoryIndex backend() {
    return backend;
  }

  public IndexedRepositoryOperations operations() {
    return operations;
  }

  /** Adds files {@code 0..count-1} through the facade, {@code batch} changes per update. */
  public void load(IntFunction<String> paths, int count, int batch) {
    for (int from = 0; from < count; from += batch) {
      List<IndexFileChange> changes = new ArrayList<>(batch);
      for (int i = from; i < Math.min(count, from + batch); i++) {
        changes.add(IndexFileChange.of(paths.apply(i), IndexFileChangeKind.ADD));
      }
      update(changes);
    }
  }

  /** One update through the facade at the next revision. */
  public void update(List<IndexFileChange> changes) {
    operations.index().update(new IndexUpdateRequest("bench", "worktree", "rev-" + ++revision,
        changes));
  }

  /** Re-attests freshness: an update of one unchanged file (skipped by its hash). */
  public void refresh() {
    if (refreshPath != null) {
      update(List.of(IndexFileChange.of(refreshPath, IndexFileChangeKind.EDIT)));
    }
  }

  /** A search through the composite. */
  public RepositorySearchResult search(String query, SearchMode mode, @Nullable Integer maxMatches) {
    return operations.search(RepositorySearchRequest.builder(root, query).mode(mode)
        .maxMatches(maxMatches).build());
  }

  @Override
  public void close() {
    operations.index().dispose();
    if (refreshPath != null) {
      try {
        Files.deleteIfExists(root);
      } catch (IOException ignored) {
        // a temporary directory; nothing to do
      }
    }
  }
}
