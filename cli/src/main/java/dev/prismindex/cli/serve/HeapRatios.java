package dev.prismindex.cli.serve;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the resident server's heap is sized while it answers and while it is quiet. A server is
 * started with {@code -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30} ({@link ServerStarter},
 * the launcher) so that the full collection it runs once quiet shrinks its heap to what is live
 * plus 30 %. Kept while it answers, those ratios shrank the heap at every full collection, so its
 * young generation stayed at about 5.5 MB, what a long answer had in flight was promoted at its
 * young collections, and the old generation filled: a 17 000-line regex answer ran about one full
 * collection (50-75 ms on machine D). So the server answers with the JVM's default ratios (the
 * heap grows with the work: {@link #BUSY_MIN}, {@link #BUSY_MAX}), and its quiet collection runs
 * with the ratios it was started with. Both are manageable HotSpot flags; on a JVM without them, or
 * started with ratios no smaller than the defaults, nothing changes.
 */
final class HeapRatios {

  private static final Logger LOG = LoggerFactory.getLogger(HeapRatios.class);

  static final String MIN = "MinHeapFreeRatio";
  static final String MAX = "MaxHeapFreeRatio";
  /** The JVM's default ratios, in effect while the server answers. */
  static final int BUSY_MIN = 40;
  static final int BUSY_MAX = 70;

  /** Reads and sets the JVM's flags. */
  interface Flags {
    /** The flag's value, or null when the JVM has none such. */
    @Nullable String get(String name);

    void set(String name, String value);
  }

  private final Flags flags;
  private final int quietMin;
  private final int quietMax;
  private final boolean active;

  HeapRatios(Flags flags) {
    this.flags = flags;
    int min = -1;
    int max = -1;
    try {
      min = Integer.parseInt(String.valueOf(flags.get(MIN)));
      max = Integer.parseInt(String.valueOf(flags.get(MAX)));
    } catch (RuntimeException e) {
      LOG.debug("heap free ratios unreadable: {}", e.toString());
    }
    this.quietMin = min;
    this.quietMax = max;
    this.active = min >= 0 && max >= 0 && min <= BUSY_MIN && max < BUSY_MAX && set(BUSY_MAX,
        BUSY_MIN);
  }

  /** The ratios of this JVM (HotSpot's diagnostic bean; none elsewhere). */
  static HeapRatios ofJvm() {
    HotSpotDiagnosticMXBean bean;
    try {
      bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    } catch (RuntimeException | LinkageError e) {
      bean = null;
    }
    HotSpotDiagnosticMXBean hotspot = bean;
    return new HeapRatios(new Flags() {
      @Override
      public @Nullable String get(String name) {
        return hotspot == null ? null : hotspot.getVMOption(name).getValue();
      }

      @Override
      public void set(String name, String value) {
        if (hotspot == null) {
          throw new IllegalStateException("no HotSpot diagnostic bean");
        }
        hotspot.setVMOption(name, value);
      }
    });
  }

  /** Whether the ratios change between answering and quiet. */
  boolean active() {
    return active;
  }

  /** Runs {@code collect} (a full collection) with the ratios the server was started with. */
  void quiet(Runnable collect) {
    if (!active) {
      collect.run();
      return;
    }
    set(quietMax, quietMin);
    try {
      collect.run();
    } finally {
      set(BUSY_MAX, BUSY_MIN);
    }
  }

  /**
   * Sets both ratios, the one that keeps {@code min <= max} at every step first.
   *
   * @return false when the JVM refused
   */
  private boolean set(int max, int min) {
    try {
      int current = Integer.parseInt(String.valueOf(flags.get(MIN)));
      if (min <= current) {
        flags.set(MIN, Integer.toString(min));
        flags.set(MAX, Integer.toString(max));
      } else {
        flags.set(MAX, Integer.toString(max));
        flags.set(MIN, Integer.toString(min));
      }
      return true;
    } catch (RuntimeException e) {
      LOG.debug("heap free ratios not set: {}", e.toString());
      return false;
    }
  }
}
