package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.DocumentSink;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.StoreWrite;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One write of a repository to its cluster index (its {@link Slice}: the other repositories'
 * documents are not touched): the record says {@code writing} from the start (so a write that
 * never commits leaves the index {@code stale}, and the next write resumes it), the documents go
 * in bulk requests ({@link ClusterSink}), and the commit sends what is pending, deletes the chunks
 * an interrupted write left (when resuming), refreshes the index so every change is searchable,
 * and records {@code ready}. Nothing acknowledged is rolled back: closing without a commit leaves
 * the record saying {@code writing}.
 */
final class ClusterWrite implements StoreWrite {

  private final Cluster cluster;
  private final Slice slice;
  private final ClusterRecord record;
  private final @Nullable JsonNode previous;
  private final boolean resumed;
  private final ClusterSink sink;

  ClusterWrite(Cluster cluster, Slice slice, ClusterRecord record, @Nullable JsonNode previous,
      ClusterSink sink) {
    this.cluster = cluster;
    this.slice = slice;
    this.record = record;
    this.previous = previous;
    this.resumed = previous != null
        && IndexLayout.STATE_WRITING.equals(previous.path(IndexLayout.STATE).asText());
    this.sink = sink;
  }

  @Override
  public boolean resumed() {
    return resumed;
  }

  @Override
  public DocumentSink documents() {
    return sink;
  }

  /**
   * @throws ClusterUnavailableException when the cluster refused documents (those files keep
   *     their previous state; the next write completes the index)
   */
  @Override
  public void commit(CommitRecord commit, @Nullable Map<String, FileEntry> manifest)
      throws IOException {
    sink.finish();
    if (resumed && manifest != null) {
      ClusterManifest.sweepOrphans(cluster, slice, manifest);
    }
    cluster.call("POST", slice.url("_refresh"), Map.of(), null);
    record.write(previous, IndexLayout.STATE_READY, commit);
  }

  @Override
  public void close() {}
}
