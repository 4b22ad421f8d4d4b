package dev.prismindex.index;

import java.nio.file.Path;

/**
 * Proves that {@link RepositoryIndexBackendContractTest} is satisfiable by running it against the
 * {@link ScanningTestBackend} fixture ({@code indexed_literal} only).
 */
class ScanningTestBackendContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) {
    return new ScanningTestBackend(repositoryRoot);
  }
}
