package dev.prismindex.index;

/**
 * The guarded way to change and inspect a backend. Every request is validated completely before the
 * backend is called; backend failures map to {@link IndexErrorCode#ERR_PRISM_INDEX_FAILED} with a fixed
 * message.
 */
public interface IndexFacade {

  /**
   * Validates a change batch (revision and identity bounds, change cap, byte budget, relative paths,
   * rename sources) and sends it to the backend as one normalised update.
   *
   * @throws IndexException {@code LIMIT}, {@code UNTRUSTED} for invalid input; {@code FAILED} when the
   *     backend fails
   */
  void update(IndexUpdateRequest request);

  /**
   * Validates and forwards a removal (path cap, relative paths).
   *
   * @throws IndexException {@code LIMIT}, {@code UNTRUSTED} for invalid input; {@code FAILED} when the
   *     backend fails
   */
  void remove(IndexRemoveRequest request);

  /**
   * Reads the backend's status.
   *
   * @throws IndexException {@code FAILED} when the backend fails or reports an unknown state
   */
  IndexStatus status();

  /**
   * Releases the backend; afterwards the composite serves no index operation.
   *
   * @throws IndexException {@code FAILED} when the backend fails to dispose
   */
  void dispose();
}
