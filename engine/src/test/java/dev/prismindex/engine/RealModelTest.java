package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with the real model (all-MiniLM-L6-v2, quantized, from {@code model-minilm}) on a
 * small corpus: build, semantic and hybrid answers, then a fresh {@link HybridIndex} on the
 * persisted index answers without embedding a single chunk again. Kept small: the model loads
 * once (about 0.6 s) and embeds a handful of chunks.
 */
class RealModelTest {

  @TempDir Path root;

  /** Counts what the real model embeds. */
  static final class Counting implements Embedder {
    final Embedder delegate;
    final AtomicLong documents = new AtomicLong();
    final AtomicLong queries = new AtomicLong();

    Counting(Embedder delegate) {
      this.delegate = delegate;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      documents.addAndGet(texts.size());
      return delegate.embed(texts);
    }

    @Override
    public float[] embedQuery(String query) {
      queries.incrementAndGet();
      return delegate.embedQuery(query);
    }
  }

  private static Counting miniLm() {
    return new Counting(EmbedderProvider.find("all-minilm-l6-v2-q-t64").orElseThrow().create());
  }

  @Test
  void buildsSearchesAndReopensWithoutReEmbedding() throws Exception {
    write(root, "src/Durations.java", """
        package demo;

        /** Converts human-readable durations such as 5s or 2m into milliseconds. */
        public final class Durations {
          public static long parseDurationString(String text) {
            String t = text.trim();
            if (t.endsWith("s")) {
              return Long.parseLong(t.substring(0, t.length() - 1)) * 1000;
            }
            return Long.parseLong(t.substring(0, t.length() - 1)) * 60000;
          }
        }
        """);
    write(root, "src/LruCache.java", """
        package demo;

        /** A bounded map that evicts the least recently used entry when it is full. */
        public final class LruCache<K, V> extends java.util.LinkedHashMap<K, V> {
          private final int capacity;

          public LruCache(int capacity) {
            super(16, 0.75f, true);
            this.capacity = capacity;
          }

          @Override
          protected boolean removeEldestEntry(java.util.Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        }
        """);
    write(root, "scripts/deploy.py", """
        import subprocess


        def upload_release(version, host):
            \"\"\"Copies the release archive to the server over ssh and restarts the service.\"\"\"
            archive = f"build/app-{version}.tar.gz"
            subprocess.run(["scp", archive, f"{host}:/srv/app/"], check=True)
            subprocess.run(["ssh", host, "systemctl restart app"], check=True)
        """);
    write(root, "README.md", "# demo\n\nSmall utilities: durations, caches and deployment.\n");

    Counting model = miniLm();
    List<Hit> semantic;
    List<Hit> hybrid;
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).embedder(model)
        .build())) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.chunksEmbedded()).isEqualTo(model.documents.get()).isPositive();
      EngineStatus status = index.engineStatus();
      assertThat(status.embedderId()).isEqualTo("all-minilm-l6-v2-q-t64");
      assertThat(status.embedderDimension()).isEqualTo(384);
      assertThat(status.coverage().complete()).isTrue();

      semantic = index.search("remove the oldest item when the map is full",
          SearchOpts.semantic(3));
      assertThat(semantic.get(0).path()).isEqualTo("src/LruCache.java");
      assertThat(index.search("copy files to the server and restart it", SearchOpts.semantic(3))
          .get(0).path()).isEqualTo("scripts/deploy.py");
      hybrid = index.search("parseDurationString", SearchOpts.hybrid(3));
      assertThat(hybrid.get(0).path()).isEqualTo("src/Durations.java");
      assertThat(hybrid.get(0).symbol()).isEqualTo("parseDurationString");
      assertThat(hybrid).allSatisfy(h -> assertThat(h.score()).isBetween(0.0, 1.0));
    }

    Counting fresh = miniLm();
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).embedder(fresh)
        .build())) {
      assertThat(index.search("remove the oldest item when the map is full",
          SearchOpts.semantic(3))).isEqualTo(semantic);
      SearchResult again = index.searchResult("parseDurationString", SearchOpts.hybrid(3));
      assertThat(again.hits()).isEqualTo(hybrid);
      assertThat(again.partial()).isFalse();
      assertThat(fresh.documents.get()).as("no chunk re-embedded").isZero();
      assertThat(fresh.queries.get()).isEqualTo(2);
    }
  }
}
