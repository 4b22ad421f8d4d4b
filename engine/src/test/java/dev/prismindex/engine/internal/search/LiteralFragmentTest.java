package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The literal fragments of a query that can move a hit off its definition's header line. */
class LiteralFragmentTest {

  @Test
  void naturalLanguageWordsAloneAreNotFragmentsButRunsAndCodeAre() {
    assertThat(HitLocator.fragments("Returns the entries."))
        .extracting(HitLocator.Fragment::text)
        .containsExactly("returns the entries");
    assertThat(HitLocator.fragments("of a b")).isEmpty();
    assertThat(HitLocator.fragments("total count")).isEmpty();
    assertThat(HitLocator.fragments("return total;")).extracting(HitLocator.Fragment::text)
        .containsExactly("return total;", "total;");
    assertThat(HitLocator.fragments("getEntryCount"))
        .containsExactly(new HitLocator.Fragment("getentrycount", true));
    assertThat(HitLocator.fragments("`MAX_LINES`"))
        .containsExactly(new HitLocator.Fragment("max_lines", true));
    assertThat(HitLocator.fragments("map.get(key)"))
        .containsExactly(new HitLocator.Fragment("map.get(key)", false));
    assertThat(HitLocator.fragments("spawn")).isEmpty();
    assertThat(HitLocator.fragments("Runtime")).isEmpty();
    assertThat(HitLocator.fragments("")).isEmpty();
  }
}
