package dev.prismindex.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Test fixture: builders and assertions shared by the composite's tests. */
final class IndexTestSupport {

  /** A repository root; the composite never touches the file system for index hits. */
  static final Path ROOT = Path.of("build-test-repo").toAbsolutePath().normalize();

  private IndexTestSupport() {}

  /** A composite with every mode enabled and default limits. */
  static IndexedRepositoryOperations composite(FakeBackend backend) {
    return composite(backend, b -> { });
  }

  /** A composite with every mode enabled, customised by {@code options}. */
  static IndexedRepositoryOperations composite(
      FakeBackend backend, Consumer<IndexedRepositoryOptions.Builder> options) {
    IndexedRepositoryOptions.Builder builder = IndexedRepositoryOptions
        .builder(backend, new FakeFallback())
        .allowedModes(EnumSet.allOf(SearchMode.class));
    options.accept(builder);
    return IndexedRepositoryOperations.create(ROOT, builder.build());
  }

  /** An {@code indexed_literal} request for {@code query} under {@link #ROOT}. */
  static RepositorySearchRequest.Builder indexed(String query) {
    return RepositorySearchRequest.builder(ROOT, query).mode(SearchMode.INDEXED_LITERAL);
  }

  /** Asserts that {@code call} throws an {@link IndexException} with exactly this code and message. */
  static IndexException assertIndexError(
      ThrowingCallable call, IndexErrorCode code, String message) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(thrown).isInstanceOf(IndexException.class).hasMessage(message);
    IndexException error = (IndexException) thrown;
    assertThat(error.code()).isEqualTo(code);
    return error;
  }

  /** Asserts that {@code call} throws a plain {@link IllegalArgumentException} with this message. */
  static void assertIllegalArgument(ThrowingCallable call, String message) {
    assertThatThrownBy(call).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
