package dev.prismindex.examples.consumer;

// [readme:imports]
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.index.InMemoryIndex;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.IndexedRepositoryOperations;
import dev.prismindex.index.IndexedRepositoryOptions;
import dev.prismindex.repository.GitAwareOptions;
import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
// [/readme:imports]

/**
 * prism-index used as a library: a literal search, the same search served by an index through the
 * seam, and a ranked search of the persistent engine. Run it on a repository:
 *
 * <pre>{@code
 * cd examples/library-consumer
 * mvn -q package dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
 * java -cp "target/classes:$(cat target/classpath.txt)" \
 *     dev.prismindex.examples.consumer.LibraryConsumer REPO QUERY
 * }</pre>
 *
 * <p>The README's "Use it as a library" section is copied from the marked regions of this file and
 * of the pom; {@code ReadmeSnippetsTest} fails when they drift apart.
 */
public final class LibraryConsumer {

  private LibraryConsumer() {}

  /** Searches the repository {@code args[0]} (default: the working directory) for {@code args[1]}. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    String query = args.length > 1 ? args[1] : "main";
    System.out.println("-- literal and indexed_literal, through the seam (prism-index-core)");
    for (RepositorySearchMatch match : searchThroughTheSeam(root, query).matches()) {
      System.out.println(match.path() + ":" + match.line() + ":  " + match.text().strip());
    }
    System.out.println("-- lexical, the persistent engine (prism-index-engine)");
    searchWithTheEngine(root, query);
    System.out.println("-- the default mode, in five lines");
    fiveLines(root, query);
  }

  /**
   * The shortest use: open (or create) the index of {@code root}, bring it up to date and print
   * the best hits for {@code query}, in the command line's default mode (hybrid with
   * {@code prism-index-model-minilm} on the class path, else lexical).
   *
   * @throws IOException when the index cannot be read or written
   */
  public static void fiveLines(Path root, String query) throws IOException {
    // [readme:five-lines]
    try (HybridIndex index = HybridIndex.open(root)) {   // <root>/.prism-index, made if missing
      index.refresh();                                   // indexes what changed since last time
      for (Hit hit : index.search(query)) {              // hybrid; lexical without the model
        System.out.println(hit.path() + ":" + hit.line() + "  " + hit.snippet());
      }
    }
    // [/readme:five-lines]
  }

  /**
   * Indexes every file the literal scanner sees into core's in-memory index and answers
   * {@code query} from it, exactly as the scanner would (mode {@code indexed_literal}).
   *
   * @throws IOException when the root cannot be read
   */
  // [readme:seam]
  public static RepositorySearchResult searchThroughTheSeam(Path root, String query)
      throws IOException {
    // Literal search, list and glob that honour git's ignore rules (a plain walk outside git).
    RepositoryOperations literal = RepositoryOperations.gitAware(GitAwareOptions.defaults());
    RepositorySearchResult scanned = literal.search(
        RepositorySearchRequest.builder(root, query).context(2).build());
    System.out.println("the scanner found " + scanned.matches().size() + " lines");

    // Plug an index in: index modes are served only from a ready, fresh backend. Here core's
    // in-memory index; the engine's HybridIndex (below) is another RepositoryIndexBackend.
    InMemoryIndex backend = InMemoryIndex.builder(root).build();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(root,
        IndexedRepositoryOptions.builder(backend, literal)
            .allowedModes(List.of(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC))
            .build());
    try {
      // The host says what changed (here: every file, once); the seam validates the batch.
      List<IndexFileChange> changes = literal.glob(RepositoryGlobRequest.builder(root, "**").build())
          .paths().stream().map(path -> IndexFileChange.of(path, IndexFileChangeKind.ADD)).toList();
      ops.index().update(IndexUpdateRequest.of("initial", changes));
      return ops.search(RepositorySearchRequest.builder(root, query)
          .mode(SearchMode.INDEXED_LITERAL).build());   // untrusted, attested, validated hits
    } finally {
      ops.index().dispose();
    }
  }
  // [/readme:seam]

  /**
   * Opens (or creates) the engine's index under {@code <root>/.prism-index}, brings it up to date
   * and returns the ten best lexical hits for {@code query}.
   *
   * @throws IOException when the index cannot be read or written
   */
  // [readme:engine]
  public static List<Hit> searchWithTheEngine(Path root, String query) throws IOException {
    // Open (or create) the index under <root>/.prism-index and bring it up to date incrementally.
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).build())) {
      if (index.staleness().isStale()) {                  // cheap: a walk and a stat per file
        IndexRunStats run = index.refresh(RefreshOptions.INCREMENTAL);
        System.out.println("indexed " + (run.added() + run.changed()) + " files");
      }
      List<Hit> hits = index.search(query,
          SearchOpts.builder().limit(10).mode(SearchMode.LEXICAL).build());
      for (Hit hit : hits) {
        System.out.println(hit.path() + ":" + hit.line() + "  " + hit.snippet().strip()
            + "  " + hit.score());
      }
      // HybridIndex is also a RepositoryIndexBackend: IndexedRepositoryOptions.builder(index,
      // literal) plugs it into the seam above, which then serves `lexical` and `hybrid` too.
      return hits;
    }
  }
  // [/readme:engine]
}
