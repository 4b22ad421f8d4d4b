package dev.prismindex.engine.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local store's answers to the store SPI's reads ({@link LuceneReader}): a several-part BM25
 * query reports each part's score and ranks by their sum, and a gram query's ANDs and ORs select
 * the intersection and the union of their parts' files.
 */
class LuceneReaderTest {

  @TempDir Path root;

  @BeforeEach
  void index() throws IOException {
    write("src/Parser.java", "class Parser {\n  int parseDuration(String text) { return 0; }\n}\n");
    write("src/Duration.java", "class Duration {\n  long millis;\n  // parse me\n}\n");
    write("docs/notes.md", "The parser reads a duration.\n");
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
  }

  private void write(String path, String text) throws IOException {
    Path p = root.resolve(path);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private <T> T read(IndexStore.SearcherFunction<T> fn) throws IOException {
    try (IndexStore store = IndexStore.open(root.resolve(".prism-index"))) {
      return store.withSearcher(fn, null);
    }
  }

  private static Query terms(String field, String... terms) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String t : terms) {
      b.add(new TermQuery(new Term(field, t)), BooleanClause.Occur.SHOULD);
    }
    return b.build();
  }

  @Test
  void eachPartOfALexicalQueryIsScoredAndTheCandidatesRankByTheirSum() throws IOException {
    Query body = terms(StoreFields.BODY, "parse", "duration");
    Query symbol = terms(StoreFields.SYMBOL, "parseduration", "duration");
    read(s -> {
      LuceneReader r = new LuceneReader(s);
      List<Candidate> both = r.lexical(new LexicalQuery(List.of(body, symbol), null, 10));
      Map<Integer, Double> bodyAlone = new HashMap<>();
      for (Candidate c : r.lexical(LexicalQuery.of(body, null, 10))) {
        assertThat(c.parts()).containsExactly(c.score());
        bodyAlone.put(c.chunk(), c.score());
      }
      assertThat(both).isNotEmpty();
      double previous = Double.MAX_VALUE;
      boolean symbolScored = false;
      for (Candidate c : both) {
        assertThat(c.parts()).hasSize(2);
        assertThat(c.parts()[0] + c.parts()[1]).isCloseTo(c.score(), offset(1e-4));
        assertThat(c.parts()[0]).isCloseTo(bodyAlone.getOrDefault(c.chunk(), 0.0),
            offset(1e-5));
        assertThat(c.score()).isLessThanOrEqualTo(previous);
        previous = c.score();
        symbolScored |= c.parts()[1] > 0;
      }
      assertThat(symbolScored).as("the symbol part matched a definition").isTrue();
      assertThat(r.chunk(both.get(0).chunk()).path()).isEqualTo("src/Parser.java");
      return null;
    });
  }

  @Test
  void aGramQuerySelectsTheFilesOfItsAndsAndOrs() throws IOException {
    read(s -> {
      LuceneReader r = new LuceneReader(s);
      GramQuery parse = GramQuery.allOf(List.of("ars", "rse")); // "par" is a common trigram
      GramQuery millis = GramQuery.allOf(List.of("mil", "ill", "lis"));
      List<String> all = r.files(GramQuery.all(), List.of());
      assertThat(all).containsExactly("docs/notes.md", "src/Duration.java", "src/Parser.java");
      assertThat(r.files(parse, List.of())).containsExactly("docs/notes.md", "src/Duration.java",
          "src/Parser.java");
      assertThat(r.files(millis, List.of())).containsExactly("src/Duration.java");
      assertThat(r.files(new GramQuery.And(List.of(parse, millis)), List.of()))
          .containsExactly("src/Duration.java");
      GramQuery neither = GramQuery.allOf(List.of("zzq"));
      GramQuery either = new GramQuery.Or(List.of(millis, GramQuery.allOf(List.of("xt)"))));
      assertThat(r.files(either, List.of())).containsExactly("src/Duration.java",
          "src/Parser.java");
      assertThat(r.files(new GramQuery.Or(List.of(neither, millis)), List.of()))
          .containsExactly("src/Duration.java");
      assertThat(r.files(neither, List.of())).isEmpty();
      assertThat(r.files(either, List.of("src/Parser.java"))).containsExactly("src/Parser.java");
      assertThat(r.files(new GramQuery.And(List.of(either, new GramQuery.Gram("xt"))),
          List.of())).containsExactly("src/Parser.java"); // a bigram: inside "ext", "xt)"
      assertThat(new TreeSet<>(r.paths(List.of()))).containsExactlyElementsOf(all);
      return null;
    });
  }
}
