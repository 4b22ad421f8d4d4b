package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.index.MultiBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files are indexed on several threads adding to one writer; the index's content does not depend
 * on the thread count: the same terms with the same document and term frequencies in every field,
 * the same stored documents, the same manifest (issue 16). Document order inside segments may
 * differ; nothing reads it.
 */
class ThreadCountDeterminismTest {

  @TempDir Path root;
  @TempDir Path homes;

  @Test
  void oneThreadAndFourThreadsBuildTheSameIndexContent() throws Exception {
    Random random = new Random(16);
    String[] words = {"alpha", "betaGamma", "delta_epsilon", "Zeta", "XMLParser", "the", "value",
        "computeTotal", "é", "日本"};
    for (int f = 0; f < 120; f++) {
      StringBuilder java = new StringBuilder("class C" + f + " {\n");
      for (int m = 0; m < 1 + random.nextInt(6); m++) {
        java.append("  /** Returns the ").append(words[random.nextInt(words.length)])
            .append(". */\n  int m").append(m).append("() {\n    return ")
            .append(words[random.nextInt(words.length)]).append(".size() + ").append(m)
            .append(";\n  }\n");
      }
      write(root, "src/p" + (f % 7) + "/C" + f + ".java", java.append("}\n").toString());
      write(root, "docs/n" + f + ".md", "# Note " + f + "\n" + words[f % words.length] + "\n");
    }
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    Map<String, Object> one = content(homes.resolve("one"), 1, clock);
    Map<String, Object> four = content(homes.resolve("four"), 4, clock);
    assertThat(four).isEqualTo(one);
    assertThat(((List<?>) one.get("stored"))).hasSizeGreaterThan(240);
  }

  private Map<String, Object> content(Path home, int threads, Clock clock) throws IOException {
    Map<String, Object> out = new TreeMap<>();
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).home(home)
        .threads(threads).clock(clock).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      out.put("manifest", new TreeMap<>(manifest(index)));
    }
    try (FSDirectory dir = FSDirectory.open(home.resolve("lucene"));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      for (String field : List.of("body", "prose", "symbol", "path_text", "path",
          "type", "chunk_hash")) {
        Terms terms = MultiTerms.getTerms(reader, field);
        List<String> stats = new ArrayList<>();
        if (terms != null) {
          TermsEnum te = terms.iterator();
          while (te.next() != null) {
            stats.add(te.term().toString() + " " + te.docFreq() + " " + te.totalTermFreq());
          }
        }
        out.put("terms:" + field, stats);
      }
      List<String> grams = new ArrayList<>(); // each FILE document's grams, as the gram index has them
      for (LeafReaderContext leaf : reader.leaves()) {
        BinaryDocValues values = leaf.reader().getBinaryDocValues("file_grams");
        SortedDocValues paths = leaf.reader().getSortedDocValues("path_sort");
        Bits leafLive = leaf.reader().getLiveDocs();
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = values.nextDoc()) {
          if (leafLive == null || leafLive.get(doc)) {
            assertThat(paths.advanceExact(doc)).isTrue();
            grams.add(paths.lookupOrd(paths.ordValue()).utf8ToString() + " "
                + values.binaryValue().toString());
          }
        }
      }
      grams.sort(null);
      assertThat(grams).hasSizeGreaterThan(200);
      out.put("grams", grams);
      List<String> stored = new ArrayList<>();
      StoredFields fields = reader.storedFields();
      Bits live = MultiBits.getLiveDocs(reader);
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        Document d = fields.document(doc);
        List<String> values = new ArrayList<>();
        for (IndexableField f : d.getFields()) {
          values.add(f.name() + "=" + (f.stringValue() != null ? f.stringValue()
              : String.valueOf(f.numericValue())));
        }
        stored.add(String.join(", ", values));
      }
      stored.sort(null);
      out.put("stored", stored);
    }
    return out;
  }
}
