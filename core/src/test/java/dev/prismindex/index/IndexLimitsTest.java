package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.assertIllegalArgument;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Limits and options are validated when they are built, with the reference's messages. */
class IndexLimitsTest {

  @Test
  void defaultsMatchTheSpecification() {
    assertThat(IndexLimits.defaults()).isEqualTo(
        new IndexLimits(1_000, 16_777_216L, 1_000, 4_096, 60_000L, 30_000L));
  }

  static Stream<Arguments> options() {
    return Stream.of(
        Arguments.of("maxUpdateFiles", 10_000L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::maxUpdateFiles),
        Arguments.of("maxUpdateBytes", 67_108_864L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::maxUpdateBytes),
        Arguments.of("maxResults", 10_000L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::maxResults),
        Arguments.of("maxSnippetBytes", 16_384L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::maxSnippetBytes),
        Arguments.of("staleMaxAgeMs", 300_000L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::staleMaxAgeMs),
        Arguments.of("queryTimeoutMs", 120_000L,
            (BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder>) IndexLimits.Builder::queryTimeoutMs));
  }

  @ParameterizedTest
  @MethodSource("options")
  void everyLimitRejectsInsteadOfClamping(
      String name, long hard, BiFunction<IndexLimits.Builder, Number, IndexLimits.Builder> set) {
    String message = name + " must be a positive safe integer at most " + hard;
    for (Number bad : List.<Number>of(0, -1, hard + 1, 1.5, Double.NaN, Double.POSITIVE_INFINITY,
        Long.MAX_VALUE)) {
      assertIllegalArgument(() -> set.apply(IndexLimits.builder(), bad).build(), message);
    }
    assertThat(set.apply(IndexLimits.builder(), hard).build()).isNotNull();
    assertThat(set.apply(IndexLimits.builder(), 1).build()).isNotNull();
    assertThat(set.apply(IndexLimits.builder(), 2.0).build()).isNotNull();
  }

  @Test
  void theStaleWindowOptionIsValidatedLikeTheLimit() {
    FakeBackend backend = new FakeBackend();
    for (Number bad : List.<Number>of(0, -5, 300_001, 0.5)) {
      assertIllegalArgument(
          () -> IndexedRepositoryOptions.builder(backend, new FakeFallback()).staleMaxAgeMs(bad).build(),
          "staleMaxAgeMs must be a positive safe integer at most 300000");
    }
    IndexedRepositoryOptions options = IndexedRepositoryOptions.builder(backend, new FakeFallback())
        .limits(IndexLimits.builder().maxResults(7).build()).staleMaxAgeMs(1_234).build();
    assertThat(options.staleMaxAgeMs()).isEqualTo(1_234);
    assertThat(options.limits().staleMaxAgeMs()).isEqualTo(1_234);
    assertThat(options.limits().maxResults()).isEqualTo(7);
  }

  @Test
  void literalIsAlwaysAllowedAndIndexModesAreOptIn() {
    FakeBackend backend = new FakeBackend();
    assertThat(IndexedRepositoryOptions.builder(backend, new FakeFallback()).build().allowedModes())
        .containsExactly(SearchMode.LITERAL);
    assertThat(IndexedRepositoryOptions.builder(backend, new FakeFallback())
        .allowedModes(List.of(SearchMode.SEMANTIC)).build().allowedModes())
        .containsExactlyInAnyOrder(SearchMode.LITERAL, SearchMode.SEMANTIC);
    assertThat(backend.totalCalls()).isZero();
  }
}
