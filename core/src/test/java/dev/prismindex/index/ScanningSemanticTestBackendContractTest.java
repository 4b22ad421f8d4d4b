package dev.prismindex.index;

import java.nio.file.Path;

/**
 * Runs {@link RepositoryIndexBackendContractTest} against the {@link ScanningTestBackend} fixture with
 * its word-overlap "semantic" mode enabled, so the capable branch of the capability test runs too.
 */
class ScanningSemanticTestBackendContractTest extends RepositoryIndexBackendContractTest {

  @Override
  protected RepositoryIndexBackend newBackend(Path repositoryRoot) {
    return new ScanningTestBackend(repositoryRoot, true);
  }

  @Override
  protected boolean supportsSemantic() {
    return true;
  }
}
