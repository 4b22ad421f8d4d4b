package dev.prismindex.engine;

import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.index.RepositoryIndexBackendContractTest;
import java.io.IOException;
import java.nio.file.Path;

/** {@link HybridIndex} passes the seam's backend contract (index home inside the repository). */
class HybridIndexContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(repositoryRoot).build());
  }
}
