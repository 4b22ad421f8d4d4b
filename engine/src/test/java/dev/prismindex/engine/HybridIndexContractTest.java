package dev.prismindex.engine;

import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.index.RepositoryIndexBackendContractTest;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;

/**
 * {@link HybridIndex} passes the seam's backend contract (index home inside the repository): with
 * an embedding model (the class path's default, the test embedder, so {@code semantic} runs
 * HYBRID) and lexical-only.
 */
class HybridIndexContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(repositoryRoot).build());
  }

  @Override
  protected boolean supportsSemantic() {
    return true;
  }

  /** Semantic search switched off: {@code semantic} is declared unsupported. */
  @Nested
  class LexicalOnly extends RepositoryIndexBackendContractTest {
    @Override
    protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
      return HybridIndex.open(HybridIndexOptions.builder(repositoryRoot).semantic(false).build());
    }
  }
}
