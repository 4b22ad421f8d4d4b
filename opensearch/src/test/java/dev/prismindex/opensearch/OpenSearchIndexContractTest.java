package dev.prismindex.opensearch;

import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.index.RepositoryIndexBackendContractTest;
import java.io.IOException;
import java.nio.file.Path;

/** {@link OpenSearchIndex} on the two-node test cluster passes the seam's backend contract. */
class OpenSearchIndexContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
    return OpenSearchIndex.open(TestCluster.options(repositoryRoot).build());
  }

  @Override
  protected boolean supportsSemantic() {
    return true;
  }
}
