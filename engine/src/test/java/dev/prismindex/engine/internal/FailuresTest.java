package dev.prismindex.engine.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A task's failure, thrown again as it was. */
class FailuresTest {

  @Test
  void ioExceptionsRuntimeExceptionsAndErrorsAreThrownAsTheyWere() {
    IOException io = new IOException("disk");
    UncheckedIOException unchecked = new UncheckedIOException(io);
    OutOfMemoryError error = new OutOfMemoryError("heap");
    assertThatThrownBy(() -> Failures.rethrow(io)).isSameAs(io);
    assertThatThrownBy(() -> Failures.rethrow(unchecked)).isSameAs(unchecked);
    assertThatThrownBy(() -> Failures.rethrow(error)).isSameAs(error);
  }

  @Test
  void anotherCheckedExceptionIsWrappedInAnIoException() {
    TimeoutException timeout = new TimeoutException("slow");
    assertThatThrownBy(() -> Failures.rethrow(timeout)).isExactlyInstanceOf(IOException.class)
        .hasCause(timeout);
  }
}
