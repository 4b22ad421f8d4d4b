package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * Counted terms index exactly what {@link CodeAnalyzer}'s chains index from the same text: the
 * same terms, documents, frequencies, norms and statistics, so the same scores; and {@link
 * CodeSimilarity} gives any other field BM25's norms.
 */
class ChunkTermsTest {

  private static final FieldType RANKED = new FieldType();

  static {
    RANKED.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    RANKED.setTokenized(true);
    RANKED.freeze();
  }

  /** The chunk fields, and {@code plain}: analyzed by the chain in both indexes. */
  private static final List<String> FIELDS =
      List.of("body", "prose", "symbol", "path_text", "plain");

  private static final String[] PIECES = {"getBean", "getBean", "XMLHttpRequest", "parse_duration",
      "utf8Decoder", "ALL_CAPS_NAME", "_private", "___", "__init__", "x", "i", "i", "the", "of",
      "and", "is", "removeEntry", "entries", "entry", "relational", "caf\u00e9Cr\u00e8me",
      "\u00c9TAT_g\u00e9n\u00e9ral", "\u6f22\u5b57\u5909\u6570", "\ud835\udcb3value",
      "\ud83d\ude00", "\u0130stanbul", "stra\u00dfe", "a1b2C3", "HTTP2Server", "42", "0x1F",
      "snake_Case_Mixed", "getGetGet", "for", "if", "return", "this.field", "Map<String,",
      "List<Integer>>", "\"quoted string\"", "// comment with words", "/* the block */",
      "\ud800", "\udc00", "tab\tseparated", "line\nbreak", "emoji\ud83d\ude00joined"};

  private static List<String> texts() {
    List<String> texts = new ArrayList<>(List.of("", " ", "...;;;", "the of and", "___",
        "getBean getBean getBean", "a".repeat(300), "Ab".repeat(100) + "\ud835\udcb3tail",
        "x".repeat(127) + "\ud835\udcb3" + "y".repeat(200), "_".repeat(129) + "Name"));
    Random random = new Random(11);
    StringBuilder many = new StringBuilder(); // more distinct identifiers than the table's start
    for (int i = 0; i < 5_000; i++) {
      many.append("name").append(random.nextInt(4_000)).append("Of").append(i % 7).append(' ');
    }
    texts.add(many.toString());
    for (int t = 0; t < 300; t++) {
      StringBuilder b = new StringBuilder();
      int n = random.nextInt(t % 10 == 0 ? 2_000 : 120);
      for (int i = 0; i < n; i++) {
        b.append(PIECES[random.nextInt(PIECES.length)]);
        if (random.nextInt(40) == 0) {
          b.append("Long".repeat(20 + random.nextInt(40))); // cut into pieces of 128 chars
        }
        b.append(random.nextInt(5) == 0 ? "(" : " ");
      }
      texts.add(b.toString());
    }
    return texts;
  }

  @Test
  void countedTermsIndexWhatTheAnalyzerIndexes() throws IOException {
    List<String> texts = texts();
    ChunkTerms terms = new ChunkTerms();
    try (Directory analyzed = index(texts, new IndexWriterConfig(new CodeAnalyzer()),
            (field, text) -> new Field(field, text, RANKED));
        Directory counted = index(texts,
            new IndexWriterConfig(new CodeAnalyzer()).setSimilarity(new CodeSimilarity()),
            (field, text) -> counted(terms, field, text));
        DirectoryReader expected = DirectoryReader.open(analyzed);
        DirectoryReader actual = DirectoryReader.open(counted)) {
      LeafReader want = expected.leaves().get(0).reader();
      LeafReader got = actual.leaves().get(0).reader();
      assertThat(expected.leaves()).hasSize(1);
      assertThat(actual.leaves()).hasSize(1);
      for (String field : FIELDS) {
        assertThat(dump(got, field)).as(field).isEqualTo(dump(want, field));
        Terms w = want.terms(field);
        Terms g = got.terms(field);
        assertThat(w.size()).as(field).isGreaterThan(50);
        assertThat(g.getSumTotalTermFreq()).isEqualTo(w.getSumTotalTermFreq());
        assertThat(g.getSumDocFreq()).isEqualTo(w.getSumDocFreq());
        assertThat(g.getDocCount()).isEqualTo(w.getDocCount());
        assertThat(norms(got, field)).as(field).isEqualTo(norms(want, field));
      }
      for (String term : List.of("getbean", "bean", "xml", "request", "parseduration", "i")) {
        assertThat(scores(actual, term)).isEqualTo(scores(expected, term));
      }
      assertThat(scores(expected, "getbean")).isNotEmpty();
    }
  }

  /**
   * Documents with the ranked fields but no term in them (how FILE, SKIPPED and VECTOR documents
   * carry them) make the norms dense and change nothing else: the same statistics, the same scores.
   */
  @Test
  void documentsWithoutRankedTermsChangeNoScoreAndMakeNormsDense() throws IOException {
    List<String> texts = texts().subList(0, 40);
    try (DirectoryReader without = DirectoryReader.open(interleaved(texts, false));
        DirectoryReader with = DirectoryReader.open(interleaved(texts, true))) {
      LeafReader w = with.leaves().get(0).reader();
      LeafReader wo = without.leaves().get(0).reader();
      assertThat(w.maxDoc()).isEqualTo(wo.maxDoc()).isEqualTo(2 * texts.size());
      assertThat(w.terms("body").getDocCount()).isEqualTo(wo.terms("body").getDocCount());
      assertThat(w.terms("body").getSumTotalTermFreq())
          .isEqualTo(wo.terms("body").getSumTotalTermFreq());
      assertThat(norms(wo, "body")).contains(-1L);
      List<Long> dense = norms(w, "body");
      assertThat(dense).doesNotContain(-1L);
      for (int doc = 1; doc < dense.size(); doc += 2) {
        assertThat(dense.get(doc)).isZero();
      }
      for (String term : List.of("getbean", "bean", "xml", "request", "i")) {
        assertThat(scores(with, term)).isEqualTo(scores(without, term)).isNotEmpty();
      }
    }
  }

  /** Each text's counted document, each followed by one without body terms (or without body). */
  private static Directory interleaved(List<String> texts, boolean emptyFields)
      throws IOException {
    Directory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(new CodeAnalyzer())
        .setSimilarity(new CodeSimilarity());
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      ChunkTerms terms = new ChunkTerms();
      for (String text : texts) {
        Document chunk = new Document();
        chunk.add(terms.codeAndProse(text).code().field("body", RANKED));
        writer.addDocument(chunk);
        Document other = new Document();
        if (emptyFields) {
          other.add(CountedTerms.NONE.field("body", RANKED));
        }
        writer.addDocument(other);
      }
      writer.forceMerge(1);
    }
    return dir;
  }

  /** A field of the counted index: counted terms, but {@code plain} through the analyzer. */
  private static Field counted(ChunkTerms terms, String field, String text) {
    return switch (field) {
      case "body" -> terms.codeAndProse(text).code().field(field, RANKED);
      case "prose" -> terms.codeAndProse(text).prose().field(field, RANKED);
      case "plain" -> new Field(field, text, RANKED); // CodeSimilarity's norm is BM25's here
      default -> terms.code(text).field(field, RANKED);
    };
  }

  private static Directory index(List<String> texts, IndexWriterConfig config,
      BiFunction<String, String, Field> field) throws IOException {
    Directory dir = new ByteBuffersDirectory();
    try (IndexWriter writer = new IndexWriter(dir, config.setRAMBufferSizeMB(256))) {
      for (String text : texts) {
        Document d = new Document();
        for (String name : FIELDS) {
          d.add(field.apply(name, text));
        }
        writer.addDocument(d);
      }
    }
    return dir;
  }

  /** Every term of the field with its postings: {@code term: doc*freq doc*freq ...}. */
  private static List<String> dump(LeafReader reader, String field) throws IOException {
    List<String> out = new ArrayList<>();
    TermsEnum e = reader.terms(field).iterator();
    for (BytesRef term = e.next(); term != null; term = e.next()) {
      StringBuilder line = new StringBuilder(term.utf8ToString()).append(':')
          .append(e.docFreq()).append('/').append(e.totalTermFreq());
      PostingsEnum p = e.postings(null, PostingsEnum.FREQS);
      for (int doc = p.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = p.nextDoc()) {
        line.append(' ').append(doc).append('*').append(p.freq());
      }
      out.add(line.toString());
    }
    return out;
  }

  private static List<Long> norms(LeafReader reader, String field) throws IOException {
    List<Long> out = new ArrayList<>();
    NumericDocValues norms = reader.getNormValues(field);
    for (int doc = 0; doc < reader.maxDoc(); doc++) {
      out.add(norms.advanceExact(doc) ? norms.longValue() : -1L);
    }
    return out;
  }

  private static List<String> scores(DirectoryReader reader, String term) throws IOException {
    List<String> out = new ArrayList<>();
    for (ScoreDoc hit : new IndexSearcher(reader)
        .search(new TermQuery(new org.apache.lucene.index.Term("body", term)), 50).scoreDocs) {
      out.add(hit.doc + "=" + hit.score);
    }
    return out;
  }
}
