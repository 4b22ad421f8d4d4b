package dev.prismindex.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.TruncationReason;
import org.junit.jupiter.api.Test;

/** The words of the scanner's bound that stopped a search without an index ({@code ExactScan}). */
class IndexlessScanTest {

  @Test
  void eachBoundIsNamedWithTheScannersValue() {
    assertThat(IndexlessScan.bound(TruncationReason.FILES)).isEqualTo("100000 files");
    assertThat(IndexlessScan.bound(TruncationReason.DEPTH)).isEqualTo("128 directories deep");
    assertThat(IndexlessScan.bound(TruncationReason.SCAN)).isEqualTo("bytes read (1024 MiB)");
    assertThat(IndexlessScan.bound(TruncationReason.TIME)).isEqualTo("time (300 s)");
    assertThat(IndexlessScan.bound(TruncationReason.ENTRIES)).isEqualTo("entries listed");
  }
}
