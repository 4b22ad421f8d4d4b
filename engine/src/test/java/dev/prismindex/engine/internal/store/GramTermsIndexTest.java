package dev.prismindex.engine.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.codec.GramPostings;
import dev.prismindex.engine.internal.codec.WriterSettings;
import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.repository.AbortSignal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index of format 9, whose FILE documents hold their n-grams as terms of {@code grams}, is
 * searched by them, takes new files into the gram index, and still finds every file when a merge
 * puts FILE documents of both kinds into one segment.
 */
class GramTermsIndexTest {

  @TempDir Path root;

  @Test
  void anIndexWithGramTermsFindsOldAndNewFilesAlsoWhenAMergeJoinsBothKinds() throws Exception {
    write("src/Old.java", "class Old { String s = \"needle one\"; }\n");
    write("src/Plain.java", "class Plain {}\n");
    refresh();
    writeGramsAsTermsOfFormat9();
    assertThat(paths("needle")).containsExactly("src/Old.java");
    assertThat(paths("ne")).containsExactly("src/Old.java"); // a bigram: terms containing it
    write("src/New.java", "class New { String s = \"needle two\"; }\n");
    refresh();
    assertThat(paths("needle")).containsExactly("src/New.java", "src/Old.java");
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig().setCodec(WriterSettings.CODEC))) {
      w.forceMerge(1);
    }
    assertThat(mixedSegments()).isEqualTo(1);
    assertThat(paths("needle")).containsExactly("src/New.java", "src/Old.java");
    assertThat(paths("edl")).containsExactly("src/New.java", "src/Old.java");
    assertThat(paths("ne")).containsExactly("src/New.java", "src/Old.java");
    assertThat(paths("Plain")).containsExactly("src/Plain.java");
    assertThat(paths("needle two")).containsExactly("src/New.java");
    assertThat(paths("needle one")).containsExactly("src/Old.java");
  }

  private void write(String path, String text) throws Exception {
    Files.createDirectories(root.resolve(path).getParent());
    Files.writeString(root.resolve(path), text, StandardCharsets.UTF_8);
  }

  private Path lucene() {
    return root.resolve(".prism-index/lucene");
  }

  private void refresh() throws Exception {
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
  }

  /** The paths with a literal match of {@code query}, ignoring case, read from the index. */
  private List<String> paths(String query) throws Exception {
    try (FSDirectory dir = FSDirectory.open(lucene());
        DirectoryReader reader = DirectoryReader.open(dir)) {
      List<String> candidates = new LuceneReader(new IndexSearcher(reader))
          .files(LiteralSearcher.plan(query, false), List.of());
      return new LiteralSearcher(root, 1 << 20).verify(candidates,
              LiteralSearcher.compile(query, false), 100, true, 0, 0, AbortSignal.create())
          .matches().stream().map(LiteralMatch::path).toList();
    }
  }

  /** The segments holding both needle files: one by a gram term, the other in its gram index. */
  private int mixedSegments() throws Exception {
    int mixed = 0;
    try (FSDirectory dir = FSDirectory.open(lucene());
        DirectoryReader reader = DirectoryReader.open(dir)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        GramPostings postings = GramPostings.of(leaf.reader());
        if (leaf.reader().docFreq(new Term(Schema.GRAMS, "nee")) > 0 && postings != null
            && postings.docFreq(GramSet.pack("nee")) > 0) {
          mixed++;
        }
      }
    }
    return mixed;
  }

  /**
   * Rewrites every FILE document as format 9 wrote it (its grams as terms, no gram index) and
   * records format 9 in the commit.
   */
  private void writeGramsAsTermsOfFormat9() throws Exception {
    Map<String, FileEntry> manifest;
    try (IndexStore store = IndexStore.open(root.resolve(".prism-index"))) {
      manifest = store.loadManifest();
    }
    assertThat(manifest).hasSize(2);
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter w = new IndexWriter(dir,
            new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (FileEntry e : manifest.values()) {
        String text = Files.readString(root.resolve(e.path()), StandardCharsets.UTF_8);
        GramSet grams = GramSet.ofFile(SourceLines.split(text), e.path());
        Document d = Documents.file(e, grams);
        d.removeField(Schema.FILE_GRAMS);
        for (String g : grams.grams()) {
          d.add(new StringField(Schema.GRAMS, g, Field.Store.NO));
        }
        w.updateDocument(new Term(Schema.FILE_KEY, e.path()), d);
      }
      Map<String, String> data = new HashMap<>();
      w.getLiveCommitData().forEach(x -> data.put(x.getKey(), x.getValue()));
      data.put(Schema.META_FORMAT, "9");
      w.setLiveCommitData(data.entrySet(), true);
      w.commit();
    }
  }
}
