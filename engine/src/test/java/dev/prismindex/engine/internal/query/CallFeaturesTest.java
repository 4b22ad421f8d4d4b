package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.spi.ChunkDoc;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallFeaturesTest {

  private static final List<String> ROUTE = List.of(
      "func (r *Route) Host(tpl string) *Route {",
      "\treturn r.addRegexpMatcher(tpl, regexpTypeHost)",
      "}",
      "func (r *Route) addRegexpMatcher(tpl string, typ regexpType) *Route {",
      "\treturn r.addMatcher(m)",
      "}",
      "func (r *Route) addMatcher(m matcher) *Route {",
      "\tr.matchers = append(r.matchers, m)",
      "}");

  private static ChunkDoc chunk(int id, int start, int end, String name) {
    return new ChunkDoc("route.go#" + id, "route.go", start, end, new int[] {start},
        List.of(name), "go", "Route");
  }

  private static RankFeatures.Row row(int doc, ChunkDoc c, double nameShare, double codeShare) {
    double[] x = new double[RankFeatures.NAMES.size()];
    x[RankFeatures.HAND + 4] = nameShare;
    x[RankFeatures.HAND + 5] = codeShare;
    return new RankFeatures.Row(doc, null, null, c, x);
  }

  @Test
  void aChunksCallsAreTheNamesItsBodyCallsNotItsOwnDeclaration() {
    assertThat(CallFeatures.calls(chunk(1, 1, 3, "Host"), ROUTE))
        .containsExactly("addRegexpMatcher");
    assertThat(CallFeatures.calls(chunk(1, 1, 3, "Host"), null)).isNull();
    List<String> rust = List.of("fn into_std(self) -> Std {", "  let v = Self::from_raw(x);",
        "  iter.map(Wrapper::wrap).collect::<Vec<_>>()", "}");
    assertThat(CallFeatures.calls(new ChunkDoc("a.rs#1", "a.rs", 1, 4, new int[] {1},
        List.of("into_std"), "rust", null), rust))
        .containsExactlyInAnyOrder("from_raw", "map", "wrap", "collect");
  }

  @Test
  void aHelperKnowsItsCallersCodeShareAndACallerItsCalleesNameShare() throws Exception {
    List<RankFeatures.Row> rows = List.of(
        row(1, chunk(1, 1, 3, "Host"), 0.2, 0.6),
        row(2, chunk(2, 4, 6, "addRegexpMatcher"), 0.5, 0.3),
        row(3, chunk(3, 7, 9, "addMatcher"), 0.6, 0.1),
        row(4, new ChunkDoc("other.go#1", "other.go", 1, 3, new int[] {1},
            List.of("addMatcher"), "go", null), 0.6, 0.6));
    CallFeatures.fill(rows, doc -> ROUTE);
    int calls = RankFeatures.CALLS;
    assertThat(rows.get(0).features()[calls]).isEqualTo(-1); // nobody calls Host
    assertThat(rows.get(0).features()[calls + 1]).isEqualTo(0.5); // Host calls addRegexpMatcher
    assertThat(rows.get(1).features()[calls]).isEqualTo(0.6); // called by Host
    assertThat(rows.get(1).features()[calls + 1]).isEqualTo(0.6); // calls addMatcher
    assertThat(rows.get(2).features()[calls]).isEqualTo(0.3); // called by addRegexpMatcher
    assertThat(rows.get(2).features()[calls + 1]).isEqualTo(-1);
    assertThat(rows.get(3).features()[calls]).isEqualTo(-1); // alone in its file
  }

  @Test
  void aChangedFileGivesNoCallFeatures() throws Exception {
    List<RankFeatures.Row> rows = List.of(row(1, chunk(1, 1, 3, "Host"), 0.2, 0.6),
        row(2, chunk(2, 4, 6, "addRegexpMatcher"), 0.5, 0.3));
    CallFeatures.fill(rows, doc -> null);
    assertThat(rows.get(0).features()[RankFeatures.CALLS]).isZero();
    assertThat(rows.get(1).features()[RankFeatures.CALLS + 1]).isZero();
  }
}
