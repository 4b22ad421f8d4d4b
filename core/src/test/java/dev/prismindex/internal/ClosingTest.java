package dev.prismindex.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ClosingTest {

  private final List<String> closed = new ArrayList<>();

  /** A resource that records its closing, then fails with {@code failure} when not null. */
  private AutoCloseable resource(String name, @Nullable Exception failure) {
    return () -> {
      closed.add(name);
      if (failure != null) {
        throw failure;
      }
    };
  }

  @Test
  void closesEveryOneInOrder() throws IOException {
    Closing.closeAll(List.of(resource("a", null), resource("b", null), resource("c", null)));

    assertThat(closed).containsExactly("a", "b", "c");
  }

  @Test
  void aFailureDoesNotStopTheOthersAndNoneIsLost() {
    IOException first = new IOException("first");
    IOException second = new IOException("second");
    IllegalStateException third = new IllegalStateException("third");

    assertThatThrownBy(() -> Closing.closeAll(List.of(resource("a", first), resource("b", null),
        resource("c", second), resource("d", third))))
        .isSameAs(first)
        .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second, third));
    assertThat(closed).containsExactly("a", "b", "c", "d");
  }

  @Test
  void anUncheckedFailureIsThrownAsItselfAfterTheOthersAreClosed() {
    IllegalStateException broken = new IllegalStateException("broken");

    assertThatThrownBy(() -> Closing.closeAll(List.of(resource("a", broken),
        resource("b", null)))).isSameAs(broken);
    assertThat(closed).containsExactly("a", "b");
  }

  @Test
  void anotherCheckedFailureIsWrapped() {
    Exception odd = new Exception("odd");

    assertThatThrownBy(() -> Closing.closeAll(List.of(resource("a", odd))))
        .isInstanceOf(IOException.class).hasCause(odd);
  }

  @Test
  void withAFailureOnItsWayTheFailuresToCloseAreSuppressedInIt() throws IOException {
    IOException closing = new IOException("closing");
    RuntimeException cause = new RuntimeException("the reason to close");

    Closing.closeAll(List.of(resource("a", closing), resource("b", null)), cause);

    assertThat(cause.getSuppressed()).containsExactly(closing);
    assertThat(closed).containsExactly("a", "b");
  }
}
