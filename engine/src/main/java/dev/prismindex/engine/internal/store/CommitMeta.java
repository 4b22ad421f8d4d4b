package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.SemanticCoverage;
import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.jspecify.annotations.Nullable;

/** Reading and writing the values of a commit's metadata ({@link Schema}'s {@code META_*} keys). */
public final class CommitMeta {

  private CommitMeta() {}

  /** The metadata of the commit {@code s} reads. */
  public static Map<String, String> of(IndexSearcher s) throws IOException {
    return ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData();
  }

  /** A count, 0 when absent or empty. */
  public static long parseLong(@Nullable String s) {
    return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
  }

  /** The semantic coverage a commit records. */
  public static SemanticCoverage coverage(Map<String, String> data) {
    long chunks = parseLong(data.get(Schema.META_CHUNKS));
    return new SemanticCoverage(chunks,
        Math.min(chunks, parseLong(data.get(Schema.META_CHUNKS_EMBEDDED))));
  }

  /** {@link Schema#META_SKIPPED}'s value: {@code binary=2,secret=1}, reasons sorted. */
  public static String skippedMeta(Map<SkipReason, Integer> skipped) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Integer> e : notSearched(skipped).entrySet()) {
      sb.append(sb.length() == 0 ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  private static Map<String, Integer> notSearched(Map<SkipReason, Integer> skipped) {
    Map<String, Integer> out = new TreeMap<>();
    skipped.forEach((reason, n) -> {
      if (n > 0 && !FileRules.literalOnly(reason)) {
        out.put(reason.name().toLowerCase(Locale.ROOT), n);
      }
    });
    return out;
  }

  /** Parses {@link #skippedMeta}; unknown or malformed parts are ignored. */
  public static Map<String, Integer> parseSkipped(@Nullable String meta) {
    Map<String, Integer> out = new TreeMap<>();
    if (meta == null || meta.isEmpty()) {
      return out;
    }
    for (String part : meta.split(",")) {
      int eq = part.indexOf('=');
      try {
        if (eq > 0) {
          out.merge(part.substring(0, eq), Integer.parseInt(part.substring(eq + 1)), Integer::sum);
        }
      } catch (NumberFormatException e) {
        // ignore
      }
    }
    return out;
  }

  /** The chunks of a manifest's files. */
  public static long chunks(Map<String, FileEntry> manifest) {
    long n = 0;
    for (FileEntry e : manifest.values()) {
      n += e.chunks();
    }
    return n;
  }

  /** {@code manifest:} plus BLAKE3 over the sorted {@code path NUL hash LF} lines. */
  public static String manifestDigest(Map<String, FileEntry> manifest) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, FileEntry> e : new TreeMap<>(manifest).entrySet()) {
      sb.append(e.getKey()).append('\0').append(e.getValue().hash()).append('\n');
    }
    return "manifest:" + Hashing.blake3(sb.toString());
  }
}
