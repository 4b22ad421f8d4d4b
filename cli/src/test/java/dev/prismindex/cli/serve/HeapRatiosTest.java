package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class HeapRatiosTest {

  /** Flags in a map, with HotSpot's rule that the minimum never exceeds the maximum. */
  private static final class MapFlags implements HeapRatios.Flags {
    final Map<String, String> values = new HashMap<>();
    final List<String> sets = new ArrayList<>();

    MapFlags(int min, int max) {
      values.put(HeapRatios.MIN, Integer.toString(min));
      values.put(HeapRatios.MAX, Integer.toString(max));
    }

    @Override
    public @Nullable String get(String name) {
      return values.get(name);
    }

    @Override
    public void set(String name, String value) {
      Map<String, String> next = new HashMap<>(values);
      next.put(name, value);
      if (Integer.parseInt(next.get(HeapRatios.MIN)) > Integer.parseInt(next.get(HeapRatios.MAX))) {
        throw new IllegalArgumentException(name + "=" + value + " breaks min <= max");
      }
      values.putAll(next);
      sets.add(name + "=" + value);
    }

    String ratios() {
      return values.get(HeapRatios.MIN) + "/" + values.get(HeapRatios.MAX);
    }
  }

  @Test
  void aServerStartedToShrinkAnswersWithTheDefaultsAndCollectsWithItsOwnRatios() {
    MapFlags flags = new MapFlags(10, 30);
    HeapRatios heap = new HeapRatios(flags);
    assertThat(heap.active()).isTrue();
    assertThat(flags.ratios()).isEqualTo("40/70");
    List<String> during = new ArrayList<>();
    heap.quiet(() -> during.add(flags.ratios()));
    assertThat(during).containsExactly("10/30");
    assertThat(flags.ratios()).isEqualTo("40/70");
  }

  @Test
  void aServerStartedWithTheDefaultsOrLargerRatiosKeepsThem() {
    for (int[] started : new int[][] {{40, 70}, {50, 90}, {10, 70}}) {
      MapFlags flags = new MapFlags(started[0], started[1]);
      HeapRatios heap = new HeapRatios(flags);
      List<String> during = new ArrayList<>();
      heap.quiet(() -> during.add(flags.ratios()));
      assertThat(heap.active()).isFalse();
      assertThat(flags.sets).isEmpty();
      assertThat(during).containsExactly(started[0] + "/" + started[1]);
    }
  }

  @Test
  void aJvmWithoutTheFlagsStillCollects() {
    HeapRatios heap = new HeapRatios(new HeapRatios.Flags() {
      @Override
      public @Nullable String get(String name) {
        return null;
      }

      @Override
      public void set(String name, String value) {
        throw new IllegalStateException("none");
      }
    });
    int[] collected = {0};
    heap.quiet(() -> collected[0]++);
    assertThat(heap.active()).isFalse();
    assertThat(collected[0]).isEqualTo(1);
  }

  @Test
  void thisJvmsFlagsAreReadAndLeftAsTheyAreWhenNotSmaller() {
    HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(
        HotSpotDiagnosticMXBean.class);
    String min = bean.getVMOption(HeapRatios.MIN).getValue();
    String max = bean.getVMOption(HeapRatios.MAX).getValue();
    HeapRatios heap = HeapRatios.ofJvm();
    assertThat(heap.active()).isEqualTo(Integer.parseInt(max) < HeapRatios.BUSY_MAX
        && Integer.parseInt(min) <= HeapRatios.BUSY_MIN);
    if (!heap.active()) {
      assertThat(bean.getVMOption(HeapRatios.MIN).getValue()).isEqualTo(min);
      assertThat(bean.getVMOption(HeapRatios.MAX).getValue()).isEqualTo(max);
    }
  }
}
