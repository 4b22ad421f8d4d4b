package dev.prismindex.memory;

import dev.prismindex.embed.Embedder;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.InMemoryIndex.ContentSource;
import dev.prismindex.repository.RepositoryLimits;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One batch of {@link InMemoryIndexBackend}: builds the snapshot that follows another and counts
 * what it did. Used once, under the writer lock; the backend adds the counts to its statistics only
 * when the batch is published.
 *
 * <p>Each ADD or EDIT reads the file through the {@code ContentSource} (by default the working tree,
 * never through a symbolic link). A file that is absent, not regular, larger than
 * {@code maxFileBytes}, or binary (a NUL byte in its first 8 192 bytes, the scanner's rule) is
 * dropped. Otherwise the first 16 bytes of its SHA-256 are compared with the indexed file's: when
 * they and the bytes are equal, the file is skipped (unchanged). Changed and new files form one new
 * immutable segment (paths, content bytes, gram postings, quantised vectors); the old copies are
 * marked deleted in copy-on-write live bits; small segments are merged ten at a time (tiered by
 * powers of ten of their size), and a segment more than half deleted is rewritten, so an update costs
 * about its own size plus amortised merges.
 */
final class SnapshotUpdate {

  private static final int MERGE_FACTOR = 10;
  private static final int BINARY_SNIFF_BYTES = RepositoryLimits.DEFAULT_BINARY_SNIFF_BYTES;

  private final ContentSource source;
  private final @Nullable Embedder embedder;
  private final long maxFileBytes;
  private final MessageDigest sha256;

  long indexed;
  long unchanged;
  long dropped;
  long deleted;
  long merges;

  SnapshotUpdate(ContentSource source, @Nullable Embedder embedder, long maxFileBytes,
      MessageDigest sha256) {
    this.source = source;
    this.embedder = embedder;
    this.maxFileBytes = maxFileBytes;
    this.sha256 = sha256;
  }

  /** Builds the snapshot that follows {@code base} after {@code changes}. */
  Snapshot apply(Snapshot base, Map<String, IndexFileChangeKind> changes) throws IOException {
    List<SegmentView> views = base.views;
    Map<Integer, long[]> live = new HashMap<>();
    int[] killed = new int[views.size()];
    List<SegmentWriter.NewDoc> added = new ArrayList<>();
    for (Map.Entry<String, IndexFileChangeKind> change : changes.entrySet()) {
      String path = change.getKey();
      long location = base.locate(path);
      if (change.getValue() == IndexFileChangeKind.DELETE) {
        if (location >= 0) {
          kill(views, live, killed, location);
          deleted++;
        }
        continue;
      }
      byte[] content = source.read(path, maxFileBytes);
      if (content == null || content.length > maxFileBytes || isBinary(content)) {
        if (location >= 0) {
          kill(views, live, killed, location);
        }
        dropped++;
        continue;
      }
      byte[] hash = hash(content);
      if (location >= 0) {
        Segment segment = views.get((int) (location >>> 32)).segment;
        int doc = (int) location;
        if (segment.hashEquals(doc, hash) && Arrays.equals(segment.content(doc), content)) {
          unchanged++;
          continue;
        }
        kill(views, live, killed, location);
      }
      added.add(new SegmentWriter.NewDoc(path, content, hash));
      indexed++;
    }
    List<SegmentView> next = new ArrayList<>(views.size() + 1);
    for (int v = 0; v < views.size(); v++) {
      SegmentView view = views.get(v);
      long[] bits = live.get(v);
      if (bits == null) {
        next.add(view);
      } else if (view.liveCount - killed[v] > 0) {
        next.add(new SegmentView(view.segment, bits, view.liveCount - killed[v]));
      }
    }
    if (!added.isEmpty()) {
      added.sort(Comparator.comparing(SegmentWriter.NewDoc::path));
      next.add(SegmentView.allLive(SegmentWriter.write(added, embedder)));
    }
    return new Snapshot(mergeIfNeeded(next));
  }

  private static void kill(List<SegmentView> views, Map<Integer, long[]> live, int[] killed,
      long location) {
    int v = (int) (location >>> 32);
    int doc = (int) location;
    long[] bits = live.computeIfAbsent(v, key -> views.get(key).copyLive());
    bits[doc >>> 6] &= ~(1L << doc);
    killed[v]++;
  }

  /**
   * The merge policy: a segment with more deleted than live documents is rewritten alone; ten or more
   * segments whose live counts have the same number of decimal digits are merged into one. Repeats
   * until neither applies.
   */
  private List<SegmentView> mergeIfNeeded(List<SegmentView> views) {
    List<SegmentView> current = new ArrayList<>(views);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = 0; i < current.size(); i++) {
        SegmentView view = current.get(i);
        if (view.liveCount * 2 < view.segment.docCount()) {
          current.set(i, merge(List.of(view)));
          changed = true;
        }
      }
      Map<Integer, List<SegmentView>> tiers = new HashMap<>();
      for (SegmentView view : current) {
        tiers.computeIfAbsent(tier(view.liveCount), key -> new ArrayList<>()).add(view);
      }
      for (List<SegmentView> tier : tiers.values()) {
        if (tier.size() >= MERGE_FACTOR) {
          current.removeAll(tier);
          current.add(merge(tier));
          changed = true;
          break;
        }
      }
    }
    return current;
  }

  private SegmentView merge(List<SegmentView> views) {
    merges++;
    Embedder semantic = embedder;
    return SegmentView.allLive(SegmentWriter.merge(views, semantic != null,
        semantic == null ? 0 : semantic.dimension()));
  }

  private static int tier(int liveCount) {
    int digits = 0;
    for (long n = liveCount; n >= 10; n /= 10) {
      digits++;
    }
    return digits;
  }

  private static boolean isBinary(byte[] content) {
    int sniff = Math.min(content.length, BINARY_SNIFF_BYTES);
    for (int i = 0; i < sniff; i++) {
      if (content[i] == 0) {
        return true;
      }
    }
    return false;
  }

  private byte[] hash(byte[] content) {
    sha256.reset();
    return Arrays.copyOf(sha256.digest(content), Segment.HASH_BYTES);
  }
}
