package dev.prismindex.cli.mcp;

import com.fasterxml.jackson.databind.JsonMappingException.Reference;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's JSON mapper, with request params that do not fit their type reported in plain words:
 * the SDK converts a request's {@code params} into its record (a {@code tools/call}'s into a
 * {@link CallToolRequest}) and answers a failure with {@code -32603} and Jackson's message. Here
 * such a conversion fails with {@code -32602} (invalid params) and a message such as
 * {@code Invalid params: "arguments" must be an object, not a string}. Everything else is the
 * delegate's.
 */
final class McpParamsMapper implements McpJsonMapper {

  private final McpJsonMapper delegate;

  McpParamsMapper(McpJsonMapper delegate) {
    this.delegate = delegate;
  }

  @Override
  public <T> T convertValue(Object fromValue, Class<T> type) {
    return checked(fromValue, type, () -> delegate.convertValue(fromValue, type));
  }

  @Override
  public <T> T convertValue(Object fromValue, TypeRef<T> type) {
    return checked(fromValue, type.getType(), () -> delegate.convertValue(fromValue, type));
  }

  private interface Conversion<T> {
    T run();
  }

  private static <T> T checked(@Nullable Object from, Type type, Conversion<T> conversion) {
    boolean params = type instanceof Class<?> c && McpSchema.Request.class.isAssignableFrom(c);
    if (!params) {
      return conversion.run();
    }
    try {
      return conversion.run();
    } catch (IllegalArgumentException e) {
      throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
          .message("Invalid params: " + message(from, e)).build();
    }
  }

  /** Which field has which wrong type, from Jackson's exception and the value itself. */
  static String message(@Nullable Object from, IllegalArgumentException e) {
    MismatchedInputException mismatch = null;
    for (Throwable t = e; t != null && mismatch == null; t = t.getCause()) {
      if (t instanceof MismatchedInputException m) {
        mismatch = m;
      }
    }
    if (mismatch == null) {
      return "the params do not have the fields and types of this method";
    }
    List<String> path = new ArrayList<>();
    Object value = from;
    for (Reference r : mismatch.getPath()) {
      String field = r.getFieldName();
      if (field != null) {
        path.add(field);
        value = value instanceof Map<?, ?> m ? m.get(field) : null;
      } else {
        path.add(String.valueOf(r.getIndex()));
        value = value instanceof List<?> l && r.getIndex() >= 0 && r.getIndex() < l.size()
            ? l.get(r.getIndex()) : null;
      }
    }
    String name = path.isEmpty() ? "params" : String.join(".", path);
    String expected = expected(mismatch.getTargetType());
    return "\"" + name + "\"" + (expected == null ? " has the wrong type"
        : " must be " + expected) + (value == null ? "" : ", not " + describe(value));
  }

  private static @Nullable String expected(@Nullable Class<?> target) {
    if (target == null) {
      return null;
    }
    if (Map.class.isAssignableFrom(target) || Record.class.isAssignableFrom(target)) {
      return "an object";
    }
    if (Collection.class.isAssignableFrom(target) || target.isArray()) {
      return "an array";
    }
    if (target == String.class) {
      return "a string";
    }
    if (target == Boolean.class || target == boolean.class) {
      return "a boolean";
    }
    if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
      return "a number";
    }
    return null;
  }

  private static String describe(Object v) {
    return v instanceof String ? "a string" : v instanceof Number ? "a number"
        : v instanceof Boolean ? "a boolean" : v instanceof List ? "an array"
        : v instanceof Map ? "an object" : "another type";
  }

  @Override
  public <T> T readValue(String content, Class<T> type) throws IOException {
    return delegate.readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, Class<T> type) throws IOException {
    return delegate.readValue(content, type);
  }

  @Override
  public <T> T readValue(String content, TypeRef<T> type) throws IOException {
    return delegate.readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
    return delegate.readValue(content, type);
  }

  @Override
  public String writeValueAsString(Object value) throws IOException {
    return delegate.writeValueAsString(value);
  }

  @Override
  public byte[] writeValueAsBytes(Object value) throws IOException {
    return delegate.writeValueAsBytes(value);
  }
}
