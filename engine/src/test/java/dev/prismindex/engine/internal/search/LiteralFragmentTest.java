package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The literal fragments of a query that can move a hit off its definition's header line. */
class LiteralFragmentTest {

  @Test
  void naturalLanguageWordsAloneAreNotFragmentsButRunsAndCodeAre() {
    assertThat(LiteralFragments.fragments("Returns the entries."))
        .extracting(LiteralFragments.Fragment::text)
        .containsExactly("returns the entries");
    assertThat(LiteralFragments.fragments("of a b")).isEmpty();
    assertThat(LiteralFragments.fragments("total count")).isEmpty();
    assertThat(LiteralFragments.fragments("return total;")).extracting(LiteralFragments.Fragment::text)
        .containsExactly("return total;", "total;");
    assertThat(LiteralFragments.fragments("getEntryCount"))
        .containsExactly(new LiteralFragments.Fragment("getentrycount", true));
    assertThat(LiteralFragments.fragments("`MAX_LINES`"))
        .containsExactly(new LiteralFragments.Fragment("max_lines", true));
    assertThat(LiteralFragments.fragments("map.get(key)"))
        .containsExactly(new LiteralFragments.Fragment("map.get(key)", false));
    assertThat(LiteralFragments.fragments("spawn")).isEmpty();
    assertThat(LiteralFragments.fragments("Runtime")).isEmpty();
    assertThat(LiteralFragments.fragments("")).isEmpty();
  }
}
