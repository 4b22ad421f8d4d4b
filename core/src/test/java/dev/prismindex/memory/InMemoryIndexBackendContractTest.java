package dev.prismindex.memory;

import dev.prismindex.index.InMemoryIndex;
import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.index.RepositoryIndexBackendContractTest;
import java.io.IOException;
import java.nio.file.Path;

/** The backend contract, run against the in-memory index with its default (hashing) embedder. */
class InMemoryIndexBackendContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) throws IOException {
    return InMemoryIndex.builder(repositoryRoot).build();
  }

  @Override
  protected boolean supportsSemantic() {
    return true;
  }
}
