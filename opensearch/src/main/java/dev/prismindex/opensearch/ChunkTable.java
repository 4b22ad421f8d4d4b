package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The chunks a cluster reader met in one search, numbered in the order it first met them (the
 * chunk ids of its candidates), each with its ordinal in its file; and the one order of the
 * candidates it ranks itself: best first, ties by path, ordinal, then repository.
 */
final class ChunkTable {

  /** A chunk of a request's answer, its score and the scores of the query's parts. */
  record Ranked(int chunk, double score, double[] parts) {}

  private final List<ChunkDoc> chunks = new ArrayList<>();
  private final List<Integer> ordinals = new ArrayList<>();
  private final Map<String, Integer> ids = new HashMap<>();

  /**
   * The id of the chunk a hit's {@code _source} describes, of {@code repository} (null: the one
   * repository of the reader), numbered when first met.
   */
  int remember(JsonNode src, @Nullable String repository) {
    String chunkId = src.path(IndexLayout.CHUNK_ID).asText();
    String key = repository == null ? chunkId : repository + '\0' + chunkId;
    Integer id = ids.get(key);
    if (id != null) {
      return id;
    }
    chunks.add(ClusterReader.chunkDoc(src, repository));
    ordinals.add(src.path(IndexLayout.ORDINAL).asInt());
    ids.put(key, chunks.size() - 1);
    return chunks.size() - 1;
  }

  /** The chunk of an id {@link #remember} gave. */
  ChunkDoc get(int chunk) {
    return chunks.get(chunk);
  }

  /** Best first (ties by path, ordinal, repository), the first {@code depth}, ranked from 1. */
  List<Candidate> candidates(List<Ranked> ranked, int depth) {
    ranked.sort(Comparator.comparingDouble(Ranked::score).reversed()
        .thenComparing(r -> chunks.get(r.chunk()).path())
        .thenComparingInt(r -> ordinals.get(r.chunk()))
        .thenComparing(r -> String.valueOf(chunks.get(r.chunk()).repository())));
    List<Candidate> out = new ArrayList<>();
    for (Ranked r : ranked.subList(0, Math.min(depth, ranked.size()))) {
      out.add(new Candidate(r.chunk(), out.size() + 1, r.score(), r.parts()));
    }
    return out;
  }
}
