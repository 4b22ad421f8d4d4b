package dev.prismindex.opensearch;

import java.io.IOException;

/**
 * The cluster could not be reached or kept refusing (after the configured retries), or answered
 * with an error that is not the request's fault. Nothing was lost: a failed run can be repeated.
 */
public final class ClusterUnavailableException extends IOException {

  private static final long serialVersionUID = 1L;

  public ClusterUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public ClusterUnavailableException(String message) {
    super(message);
  }
}
