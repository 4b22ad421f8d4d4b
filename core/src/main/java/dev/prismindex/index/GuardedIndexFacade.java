package dev.prismindex.index;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@link IndexFacade} of a composite: validates with {@link UpdateValidator}, then makes at most
 * one backend call, mapping every backend failure to a fixed FAILED message (fail closed: the
 * backend's own code and text are never passed on; the backend's exception is kept only as the
 * cause, and an {@link OutOfMemoryError} propagates).
 *
 * <ul>
 *   <li>update: one {@code backend.update} with the normalised batch, also for a batch that only
 *       deletes (so the new revision is recorded); no call for an empty batch; FAILED "index update
 *       failed".
 *   <li>remove: one {@code backend.remove}; no call for an empty list (weakness 8); FAILED "index
 *       remove failed".
 *   <li>status: FAILED "index status failed"; a missing status or state is FAILED "index reported an
 *       unknown state"; the returned status is a copy whose revision is dropped when it is empty or
 *       over 4 096 UTF-8 bytes (bounded, so a huge revision cannot flow into tool metadata).
 *   <li>dispose: idempotent (only the first call reaches the backend, and the composite counts as
 *       disposed even if that call fails); FAILED "index dispose failed".
 *   <li>after dispose every call, and every index-mode search, is FAILED "index is disposed".
 * </ul>
 */
final class GuardedIndexFacade implements IndexFacade {

  private final RepositoryIndexBackend backend;
  private final UpdateValidator validator;
  private final AtomicBoolean disposed;
  private final Runnable onDispose;

  GuardedIndexFacade(
      RepositoryIndexBackend backend, IndexLimits limits, AtomicBoolean disposed,
      Runnable onDispose) {
    this.backend = backend;
    this.validator = new UpdateValidator(limits);
    this.disposed = disposed;
    this.onDispose = onDispose;
  }

  @Override
  public void update(IndexUpdateRequest request) {
    Objects.requireNonNull(request, "request");
    requireNotDisposed();
    IndexUpdateRequest normalised = validator.validate(request);
    if (normalised == null) {
      return;
    }
    try {
      backend.update(normalised);
    } catch (Throwable failure) {
      throw failed(IndexMessages.UPDATE_FAILED, failure);
    }
  }

  @Override
  public void remove(IndexRemoveRequest request) {
    Objects.requireNonNull(request, "request");
    requireNotDisposed();
    List<String> paths = validator.validate(request);
    if (paths.isEmpty()) {
      return;
    }
    try {
      backend.remove(new IndexRemoveRequest(paths));
    } catch (Throwable failure) {
      throw failed(IndexMessages.REMOVE_FAILED, failure);
    }
  }

  @Override
  public IndexStatus status() {
    requireNotDisposed();
    IndexStatus status;
    try {
      status = backend.status();
    } catch (Throwable failure) {
      throw failed(IndexMessages.STATUS_FAILED, failure);
    }
    if (status == null || status.state() == null) {
      throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, IndexMessages.UNKNOWN_STATE);
    }
    return new IndexStatus(status.state(), FreshnessGate.attestedRevision(status.sourceRevision()),
        status.updatedAt(), status.diagnostics());
  }

  @Override
  public void dispose() {
    if (!disposed.compareAndSet(false, true)) {
      return;
    }
    onDispose.run();
    try {
      backend.dispose();
    } catch (Throwable failure) {
      throw failed(IndexMessages.DISPOSE_FAILED, failure);
    }
  }

  private void requireNotDisposed() {
    if (disposed.get()) {
      throw disposedError();
    }
  }

  static IndexException disposedError() {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, IndexMessages.DISPOSED);
  }

  /** Maps any backend throwable to FAILED with a fixed message; an OutOfMemoryError propagates. */
  static IndexException failed(String message, Throwable failure) {
    if (failure instanceof OutOfMemoryError oom) {
      throw oom;
    }
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_FAILED, message, failure);
  }
}
