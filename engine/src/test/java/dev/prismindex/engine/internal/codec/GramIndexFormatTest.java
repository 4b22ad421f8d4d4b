package dev.prismindex.engine.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.store.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gram index: through Lucene (flushes, several segments, documents without grams, deletions,
 * merges) every gram's postings, document frequency and the documents of every gram containing a
 * bigram equal what the documents were given; Lucene's index check reads each document's value
 * back; a value that is not sorted grams is refused.
 */
class GramIndexFormatTest {

  @TempDir Path dir;

  /** Grams over a small alphabet, so that they repeat across documents and contain bigrams. */
  private static long[] randomGrams(Random random) {
    TreeSet<Long> grams = new TreeSet<>();
    int n = 1 + random.nextInt(random.nextInt(10) == 0 ? 3000 : 60); // of 20^3 + 20^2
    String units = "abcdefghijklmnopq\u00e9\u65e5\ud83d";
    while (grams.size() < n) {
      char a = units.charAt(random.nextInt(units.length()));
      char b = units.charAt(random.nextInt(units.length()));
      char c = units.charAt(random.nextInt(units.length()));
      grams.add(random.nextInt(20) == 0 ? packed(a, b) : packed(a, b, c));
    }
    return grams.stream().mapToLong(Long::longValue).toArray();
  }

  private static long packed(char a, char b, char c) {
    return (3L << 48) | ((long) a << 32) | ((long) b << 16) | c;
  }

  private static long packed(char a, char b) {
    return (2L << 48) | ((long) a << 32) | ((long) b << 16);
  }

  @Test
  void postingsAndValuesEqualTheDocumentsGramsThroughFlushesDeletionsAndMerges()
      throws Exception {
    Random random = new Random(42);
    Map<String, long[]> byId = new HashMap<>();
    try (FSDirectory d = FSDirectory.open(dir)) {
      IndexWriterConfig config = new IndexWriterConfig().setCodec(WriterSettings.CODEC)
          .setMaxBufferedDocs(97).setMergePolicy(NoMergePolicy.INSTANCE);
      try (IndexWriter w = new IndexWriter(d, config)) {
        for (int i = 0; i < 1500; i++) {
          Document doc = new Document();
          String id = Integer.toString(i);
          doc.add(new StringField("id", id, Field.Store.YES));
          if (i % 5 != 3) { // some documents (chunks, say) have no grams
            long[] grams = randomGrams(random);
            doc.add(new BinaryDocValuesField(Schema.FILE_GRAMS, GramIndexFormat.encode(grams)));
            byId.put(id, grams);
          }
          w.addDocument(doc);
        }
        for (int i = 0; i < 1500; i += 7) {
          w.deleteDocuments(new Term("id", Integer.toString(i)));
          byId.remove(Integer.toString(i));
        }
      }
      assertThat(segments(d)).isGreaterThan(10);
      assertMatches(d, byId, random);
      assertThat(check(d)).isTrue();
      for (int segments : new int[] {3, 1}) {
        try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setCodec(WriterSettings.CODEC))) {
          w.forceMerge(segments);
        }
        assertMatches(d, byId, random);
      }
      assertThat(segments(d)).isEqualTo(1);
      assertMatches(d, byId, random);
      assertThat(check(d)).isTrue();
    }
  }

  private static int segments(FSDirectory d) throws Exception {
    try (DirectoryReader r = DirectoryReader.open(d)) {
      return r.leaves().size();
    }
  }

  private static boolean check(FSDirectory d) throws Exception {
    try (CheckIndex check = new CheckIndex(d)) {
      return check.checkIndex().clean;
    }
  }

  private static void assertMatches(FSDirectory d, Map<String, long[]> byId, Random random)
      throws Exception {
    try (DirectoryReader r = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : r.leaves()) {
        GramPostings postings = GramPostings.of(leaf.reader());
        assertThat(postings).isNotNull();
        StoredFields stored = leaf.reader().storedFields();
        Bits live = leaf.reader().getLiveDocs();
        // The expected postings: each gram's live documents in the segment.
        Map<Long, List<Integer>> expected = new HashMap<>();
        Map<Integer, long[]> values = new HashMap<>();
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          long[] grams = byId.get(stored.document(doc).get("id"));
          if (grams == null || live != null && !live.get(doc)) {
            continue;
          }
          values.put(doc, grams);
          for (long g : grams) {
            expected.computeIfAbsent(g, k -> new ArrayList<>()).add(doc);
          }
        }
        for (Map.Entry<Long, List<Integer>> e : expected.entrySet()) {
          assertThat(live(postings.docs(e.getKey()), live)).isEqualTo(e.getValue());
        }
        assertThat(postings.docs(packed('x', 'y', 'z'))).isNull();
        assertThat(postings.docFreq(packed('x', 'y', 'z'))).isZero();
        assertThat(postings.docFreq(0L)).isZero();
        assertThat(postings.docFreq(Long.MAX_VALUE)).isZero();
        String units = "abcdefghijklmnopq\u00e9\u65e5\ud83dxy";
        for (int i = 0; i < 20; i++) {
          char a = units.charAt(random.nextInt(units.length()));
          char b = units.charAt(random.nextInt(units.length()));
          long bigram = packed(a, b);
          TreeSet<Integer> want = new TreeSet<>();
          values.forEach((doc, grams) -> {
            for (long g : grams) {
              if (g == bigram || g >>> 48 == 3 && ((g >>> 16 & 0xFFFF_FFFFL) == (bigram >>> 16 & 0xFFFF_FFFFL)
                  || (g & 0xFFFF_FFFFL) == (bigram >>> 16 & 0xFFFF_FFFFL))) {
                want.add(doc);
                return;
              }
            }
          });
          assertThat(live(postings.containing(bigram), live)).as("containing %s%s", a, b)
              .containsExactlyElementsOf(want);
        }
        // The values rebuilt from the postings: every document with grams, its own grams.
        BinaryDocValues rebuilt = leaf.reader().getBinaryDocValues(Schema.FILE_GRAMS);
        Map<Integer, long[]> got = new HashMap<>();
        GramIndexFormat.Decoder decoder = new GramIndexFormat.Decoder();
        for (int doc = rebuilt.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = rebuilt.nextDoc()) {
          if (live == null || live.get(doc)) {
            decoder.read(rebuilt.binaryValue());
            got.put(doc, Arrays.copyOf(decoder.grams, decoder.size));
          }
        }
        assertThat(got.keySet()).isEqualTo(values.keySet());
        got.forEach((doc, grams) -> assertThat(grams).containsExactly(values.get(doc)));
      }
    }
  }

  /** The live documents of {@code it}. */
  private static List<Integer> live(DocIdSetIterator it, Bits live) throws Exception {
    List<Integer> out = new ArrayList<>();
    assertThat(it).isNotNull();
    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
      if (live == null || live.get(doc)) {
        out.add(doc);
      }
    }
    return out;
  }

  @Test
  void aDamagedGramIndexFileIsReportedAsCorrupt() throws Exception {
    for (String extension : new String[] {"pgm", "pgd"}) {
      Path home = dir.resolve(extension);
      try (FSDirectory d = FSDirectory.open(home)) {
        try (IndexWriter w = new IndexWriter(d, new IndexWriterConfig()
            .setCodec(WriterSettings.CODEC).setUseCompoundFile(false))) {
          Random random = new Random(5);
          for (int i = 0; i < 50; i++) {
            Document doc = new Document();
            doc.add(new BinaryDocValuesField(Schema.FILE_GRAMS,
                GramIndexFormat.encode(randomGrams(random))));
            w.addDocument(doc);
          }
        }
        Path file;
        try (var files = java.nio.file.Files.list(home)) {
          file = files.filter(f -> f.toString().endsWith("." + extension)).findFirst()
              .orElseThrow();
        }
        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x5A; // a byte in the middle: past the header, before the footer
        java.nio.file.Files.write(file, bytes);
        if (extension.equals("pgm")) { // read whole when the segment opens
          assertThatThrownBy(() -> DirectoryReader.open(d).close())
              .isInstanceOf(org.apache.lucene.index.CorruptIndexException.class);
        } else { // read as asked: the checksum of the whole file catches it
          try (DirectoryReader r = DirectoryReader.open(d)) {
            assertThatThrownBy(() -> r.leaves().get(0).reader().checkIntegrity())
                .isInstanceOf(org.apache.lucene.index.CorruptIndexException.class);
          }
          assertThat(check(d)).isFalse();
        }
      }
    }
  }

  @Test
  void aValueOfUnsortedOrNoGramsIsRefused() {
    assertThatThrownBy(() -> GramIndexFormat.encode(new long[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GramIndexFormat.encode(new long[] {5, 5}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GramIndexFormat.encode(new long[] {7, 5}))
        .isInstanceOf(IllegalArgumentException.class);
    GramIndexFormat.Decoder decoder = new GramIndexFormat.Decoder();
    long[] grams = {1, 2, 300, 1L << 49, (3L << 48) | 0xFFFF_FFFF_FFFFL};
    BytesRef value = GramIndexFormat.encode(grams);
    decoder.read(value);
    assertThat(Arrays.copyOf(decoder.grams, decoder.size)).containsExactly(grams);
  }
}
