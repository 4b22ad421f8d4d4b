package dev.prismindex.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AbortSignalTest {

  @Test
  void listenersRunOnceOnAbort() {
    AbortSignal signal = AbortSignal.create();
    AtomicInteger runs = new AtomicInteger();
    signal.onAbort(runs::incrementAndGet);
    assertThat(signal.isAborted()).isFalse();
    signal.abort();
    signal.abort();
    assertThat(signal.isAborted()).isTrue();
    assertThat(runs).hasValue(1);
  }

  @Test
  void aListenerAddedAfterTheAbortRunsImmediately() {
    AtomicInteger runs = new AtomicInteger();
    AbortSignal.aborted().onAbort(runs::incrementAndGet);
    assertThat(runs).hasValue(1);
  }

  @Test
  void closedRegistrationsDoNotRun() {
    AbortSignal signal = AbortSignal.create();
    AtomicInteger runs = new AtomicInteger();
    AbortSignal.Registration registration = signal.onAbort(runs::incrementAndGet);
    registration.close();
    registration.close();
    signal.abort();
    assertThat(runs).hasValue(0);
  }

  @Test
  void linkedChildFollowsItsParentUntilUnlinked() {
    AbortSignal parent = AbortSignal.create();
    AbortSignal.Linked linked = parent.link();
    parent.abort();
    assertThat(linked.signal().isAborted()).isTrue();

    AbortSignal other = AbortSignal.create();
    AbortSignal.Linked unlinked = other.link();
    unlinked.close();
    other.abort();
    assertThat(unlinked.signal().isAborted()).isFalse();

    AbortSignal child = AbortSignal.create().link().signal();
    child.abort();
    assertThat(child.isAborted()).isTrue();
  }

  @Test
  void linkingAnAbortedParentGivesAnAbortedChild() {
    assertThat(AbortSignal.aborted().link().signal().isAborted()).isTrue();
  }
}
