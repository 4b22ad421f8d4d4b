package dev.prismindex.opensearch;

import java.io.IOException;

/**
 * The cluster refused a request for a reason of its own (a mapping conflict, a bad request, a
 * missing index, an authentication failure): the status and the cluster's own reason.
 */
final class ClusterRequestException extends IOException {

  private static final long serialVersionUID = 1L;

  ClusterRequestException(String message) {
    super(message);
  }

  static ClusterRequestException of(String what, Cluster.Reply r) {
    String reason = r.body().path("error").path("reason").asText("");
    if (reason.isEmpty()) {
      reason = r.body().path("error").asText(r.body().toString());
    }
    String hint = r.status() == 401 || r.status() == 403
        ? " (check the cluster credentials)" : "";
    return new ClusterRequestException(
        "OpenSearch refused " + what + ": HTTP " + r.status() + ": " + reason + hint);
  }
}
