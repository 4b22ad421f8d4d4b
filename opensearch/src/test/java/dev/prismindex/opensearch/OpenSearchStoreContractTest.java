package dev.prismindex.opensearch;

import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.index.RepositoryIndexBackendContractTest;
import java.io.IOException;
import java.nio.file.Path;

/** {@code HybridIndex} over {@link OpenSearchStore} on the two-node test cluster passes the seam's
 * backend contract. */
class OpenSearchStoreContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
    return TestCluster.open(repositoryRoot);
  }

  @Override
  protected boolean supportsSemantic() {
    return true;
  }
}
