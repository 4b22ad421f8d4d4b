package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RepositoryLimitsTest {

  @Test
  void defaultsAreTheContractValues() {
    RepositoryLimits limits = RepositoryLimits.defaults();
    assertThat(limits.maxDepth()).isEqualTo(32);
    assertThat(limits.maxEntries()).isEqualTo(10_000);
    assertThat(limits.maxFiles()).isEqualTo(10_000);
    assertThat(limits.maxResults()).isEqualTo(1_000);
    assertThat(limits.maxConcurrency()).isEqualTo(8);
    assertThat(limits.maxScanBytes()).isEqualTo(67_108_864L);
    assertThat(limits.maxFileBytes()).isEqualTo(8_388_608L);
    assertThat(limits.maxMatches()).isEqualTo(1_000);
    assertThat(limits.maxPatternBytes()).isEqualTo(512);
    assertThat(limits.maxLineBytes()).isEqualTo(51_200);
    assertThat(limits.maxContextLines()).isEqualTo(5);
    assertThat(limits.maxTimeMs()).isEqualTo(30_000);
    assertThat(limits.exclude()).containsExactly(".git", "node_modules", "dist");
    assertThat(RepositoryLimits.DEFAULT_BINARY_SNIFF_BYTES).isEqualTo(8_192);
  }

  static Stream<Arguments> options() {
    return Stream.of(
        option("maxDepth", 128, RepositoryLimits.Builder::maxDepth),
        option("maxEntries", 100_000, RepositoryLimits.Builder::maxEntries),
        option("maxFiles", 100_000, RepositoryLimits.Builder::maxFiles),
        option("maxResults", 10_000, RepositoryLimits.Builder::maxResults),
        option("maxConcurrency", 32, RepositoryLimits.Builder::maxConcurrency),
        option("maxScanBytes", 1_073_741_824L, RepositoryLimits.Builder::maxScanBytes),
        option("maxFileBytes", 67_108_864L, RepositoryLimits.Builder::maxFileBytes),
        option("maxMatches", 10_000, RepositoryLimits.Builder::maxMatches),
        option("maxPatternBytes", 4_096, RepositoryLimits.Builder::maxPatternBytes),
        option("maxLineBytes", 1_048_576, RepositoryLimits.Builder::maxLineBytes),
        option("maxTimeMs", 300_000, RepositoryLimits.Builder::maxTimeMs));
  }

  private static Arguments option(String name, long hard,
      BiFunction<RepositoryLimits.Builder, Number, RepositoryLimits.Builder> setter) {
    return Arguments.of(name, hard, setter);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("options")
  void positiveOptionsAcceptOneAndTheHardCapAndRejectEverythingElse(String name, long hard,
      BiFunction<RepositoryLimits.Builder, Number, RepositoryLimits.Builder> setter) {
    setter.apply(RepositoryLimits.builder(), 1).build();
    setter.apply(RepositoryLimits.builder(), hard).build();
    String message = name + " must be a positive safe integer at most " + hard;
    for (Number bad : List.<Number>of(0, -1, hard + 1, 1.5, Double.NaN,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)) {
      assertThatThrownBy(() -> setter.apply(RepositoryLimits.builder(), bad).build())
          .as("%s = %s", name, bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(message);
    }
  }

  @Test
  void contextLinesAllowZero() {
    assertThat(RepositoryLimits.builder().maxContextLines(0).build().maxContextLines()).isZero();
    assertThat(RepositoryLimits.builder().maxContextLines(20).build().maxContextLines())
        .isEqualTo(20);
    for (Number bad : List.<Number>of(-1, 21, 0.5, Double.NaN)) {
      assertThatThrownBy(() -> RepositoryLimits.builder().maxContextLines(bad).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxContextLines must be a non-negative safe integer at most 20");
    }
  }

  @Test
  void aSuppliedExcludeListReplacesTheDefault() {
    assertThat(RepositoryLimits.builder().exclude(List.of("target")).build().exclude())
        .containsExactly("target");
    assertThat(RepositoryLimits.builder().exclude(List.of()).build().exclude()).isEmpty();
  }

  @Test
  void safeIntegerRulesFollowJavaScript() {
    assertThat(CodingLimits.isSafeInteger(9_007_199_254_740_991L)).isTrue();
    assertThat(CodingLimits.isSafeInteger(9_007_199_254_740_992L)).isFalse();
    assertThat(CodingLimits.isSafeInteger(-9_007_199_254_740_991L)).isTrue();
    assertThat(CodingLimits.isSafeInteger(Long.MIN_VALUE)).isFalse();
    assertThat(CodingLimits.isSafeInteger(-0.0)).isTrue();
    assertThat(CodingLimits.isSafeInteger(2.0)).isTrue();
    assertThat(CodingLimits.isSafeInteger(2.5f)).isFalse();
    assertThat(CodingLimits.isSafeInteger(new BigDecimal("3.000"))).isTrue();
    assertThat(CodingLimits.isSafeInteger(new BigDecimal("3.5"))).isFalse();
    assertThat(CodingLimits.isSafeInteger(BigInteger.TWO.pow(53))).isFalse();
    assertThat(CodingLimits.isSafeInteger(BigInteger.TWO.pow(53).subtract(BigInteger.ONE)))
        .isTrue();
    assertThat(CodingLimits.isSafeInteger(null)).isFalse();
  }

  @Test
  void validatorsReturnTheValueUnchanged() {
    assertThat(CodingLimits.requirePositive("x", 7, 10)).isEqualTo(7);
    assertThat(CodingLimits.requireNonNegative("x", 0, 10)).isZero();
    assertThat(CodingLimits.requirePositive("x", 10.0, 10)).isEqualTo(10);
    assertThatThrownBy(() -> CodingLimits.requireNonNegative("offset", -1, 100_000))
        .hasMessage("offset must be a non-negative safe integer at most 100000");
  }

  @Test
  void gitAwareOptionsValidateTheirCaps() {
    GitAwareOptions defaults = GitAwareOptions.defaults();
    assertThat(defaults.maxLsFilesOutputBytes()).isEqualTo(8L * 1024 * 1024);
    assertThat(defaults.gitTimeoutMs()).isEqualTo(120_000);
    assertThat(defaults.gitExecutable()).isEqualTo("git");
    assertThatThrownBy(() -> GitAwareOptions.builder().maxLsFilesOutputBytes(64L * 1024 * 1024 + 1)
        .build())
        .hasMessage("maxLsFilesOutputBytes must be a positive safe integer at most 67108864");
    assertThatThrownBy(() -> GitAwareOptions.builder().gitTimeoutMs(600_001).build())
        .hasMessage("gitTimeoutMs must be a positive safe integer at most 600000");
    assertThatThrownBy(() -> GitAwareOptions.builder().gitExecutable(" ").build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
