package dev.prismindex.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The rule both progress reporters thin their events by. */
class ThrottleTest {

  @Test
  void theFirstEventAndEveryForcedOnePassTheOthersOncePerInterval() {
    Throttle t = new Throttle(100);
    assertThat(t.pass(1_000, false)).as("the first").isTrue();
    assertThat(t.pass(1_050, false)).as("within the interval").isFalse();
    assertThat(t.pass(1_060, true)).as("forced").isTrue();
    // The interval counts from the last event that passed (the forced one at 1 060).
    assertThat(t.pass(1_100, false)).isFalse();
    assertThat(t.pass(1_159, false)).isFalse();
    assertThat(t.pass(1_160, false)).as("a whole interval later").isTrue();
    assertThat(t.pass(1_161, false)).isFalse();
  }

  @Test
  void aDroppedEventDoesNotPostponeTheNext() {
    Throttle t = new Throttle(100);
    t.pass(0, false);
    for (long now = 10; now < 100; now += 10) {
      assertThat(t.pass(now, false)).isFalse();
    }
    assertThat(t.pass(100, false)).isTrue();
  }

  @Test
  void aNegativeIntervalIsRefused() {
    assertThatThrownBy(() -> new Throttle(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
