package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The engine's lexical queries (Lucene {@link Query} trees of boolean, boost, dis-max, term,
 * term-set, prefix and match-none queries over the {@code Schema} fields) in OpenSearch's query DSL, clause for clause, so
 * the cluster scores them as the local index does. Any other query type is a programming error.
 */
final class QueryDsl {

  private QueryDsl() {}

  static ObjectNode of(Query q) {
    ObjectNode out = Cluster.JSON.createObjectNode();
    if (q instanceof TermQuery t) {
      out.putObject("term").putObject(t.getTerm().field()).put("value", t.getTerm().text());
    } else if (q instanceof TermInSetQuery t) {
      ArrayNode values = null;
      String field = null;
      var it = t.getTermData().iterator();
      for (BytesRef term = it.next(); term != null; term = it.next()) {
        if (values == null) {
          field = it.field();
          values = Cluster.JSON.createArrayNode();
        }
        values.add(term.utf8ToString());
      }
      if (values == null) {
        out.putObject("match_none");
      } else {
        out.putObject("terms").set(field, values);
      }
    } else if (q instanceof MatchNoDocsQuery) {
      out.putObject("match_none");
    } else if (q instanceof PrefixQuery p) {
      out.putObject("prefix").putObject(p.getPrefix().field()).put("value", p.getPrefix().text());
    } else if (q instanceof BoostQuery b) {
      ObjectNode bool = out.putObject("bool");
      bool.putArray("must").add(of(b.getQuery()));
      bool.put("boost", b.getBoost());
    } else if (q instanceof DisjunctionMaxQuery d) {
      ObjectNode dm = out.putObject("dis_max");
      ArrayNode queries = dm.putArray("queries");
      for (Query sub : d.getDisjuncts()) {
        queries.add(of(sub));
      }
      dm.put("tie_breaker", d.getTieBreakerMultiplier());
    } else if (q instanceof BooleanQuery b) {
      ObjectNode bool = out.putObject("bool");
      for (BooleanClause c : b.clauses()) {
        String occur = switch (c.getOccur()) {
          case MUST -> "must";
          case SHOULD -> "should";
          case FILTER -> "filter";
          case MUST_NOT -> "must_not";
        };
        ArrayNode list = bool.has(occur) ? (ArrayNode) bool.get(occur) : bool.putArray(occur);
        list.add(of(c.getQuery()));
      }
      if (b.getMinimumNumberShouldMatch() > 0) {
        bool.put("minimum_should_match", b.getMinimumNumberShouldMatch());
      } else if (bool.has("should") && !bool.has("must") && !bool.has("filter")) {
        bool.put("minimum_should_match", 1);
      } else if (bool.has("should")) {
        bool.put("minimum_should_match", 0);
      }
    } else {
      throw new IllegalArgumentException("no DSL form for " + q.getClass().getSimpleName());
    }
    return out;
  }
}
