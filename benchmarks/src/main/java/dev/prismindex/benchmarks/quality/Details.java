package dev.prismindex.benchmarks.quality;

import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The per-query details TSV written next to each corpus: what failures are analysed with. One row
 * per query: corpus, language, set, query, answer ({@code path:start-end}), the rank under
 * lexical, semantic and hybrid (0 = not in the top 10, {@code -} = not searched), each mode's
 * rank-1 hit as {@code path:line}, and the grep baseline's file rank.
 */
final class Details {

  private static final List<SearchMode> MODES = List.of(SearchMode.LEXICAL, SearchMode.SEMANTIC,
      SearchMode.HYBRID);

  private Details() {}

  static void write(Path file, List<Outcome> outcomes) throws IOException {
    StringBuilder sb = new StringBuilder("corpus\tlanguage\tset\tquery\tanswer\trank lexical"
        + "\trank semantic\trank hybrid\ttop1 lexical\ttop1 semantic\ttop1 hybrid\tgrep file rank\n");
    for (Outcome o : outcomes) {
      Definition t = o.target();
      sb.append(o.corpus()).append('\t').append(t.language().id()).append('\t').append(o.set())
          .append('\t').append(o.query().replace('\t', ' ')).append('\t').append(t.path())
          .append(':').append(t.startLine()).append('-').append(t.endLine());
      for (SearchMode m : MODES) {
        sb.append('\t').append(o.modes().containsKey(m) ? String.valueOf(o.rank(m)) : "-");
      }
      for (SearchMode m : MODES) {
        sb.append('\t').append(Tables.top1(o, m));
      }
      sb.append('\t').append(o.grepFileRank()).append('\n');
    }
    Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
  }
}
