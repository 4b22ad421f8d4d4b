package dev.prismindex.opensearch;

import dev.prismindex.index.PrismIndexException;

/**
 * The cluster could not be reached or kept refusing (after the configured retries), or answered
 * with an error that is not the request's fault. Nothing was lost: a failed run can be repeated.
 */
public final class ClusterUnavailableException extends PrismIndexException {

  private static final long serialVersionUID = 1L;

  /** The code of this error. */
  public static final String CODE = "ERR_PRISM_CLUSTER_UNAVAILABLE";

  public ClusterUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public ClusterUnavailableException(String message) {
    super(message, null);
  }

  /** {@value #CODE}. */
  @Override
  public String code() {
    return CODE;
  }
}
