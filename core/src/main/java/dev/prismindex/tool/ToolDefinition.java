package dev.prismindex.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * How a tool presents itself to a model host: its name, kind, side effects, description and the JSON
 * schema of its arguments.
 *
 * @param name the tool's name, e.g. {@code repo_search}
 * @param kind the tool's family, e.g. {@code search}
 * @param effect what calling the tool changes
 * @param description the text a model reads to decide when to call the tool
 * @param inputSchema the JSON schema of the arguments object; a copy owned by the caller
 */
public record ToolDefinition(
    String name, String kind, Effect effect, String description, ObjectNode inputSchema) {

  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(effect, "effect");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchema, "inputSchema");
  }

  /**
   * The side effects of a tool call.
   *
   * @param kind what the call changes: {@code none} for read-only tools
   * @param idempotency how a retry behaves: {@code none} when there is nothing to repeat
   */
  public record Effect(String kind, String idempotency) {

    /** The effect of a read-only observation: {@code kind "none"}, {@code idempotency "none"}. */
    public static final Effect NONE = new Effect("none", "none");

    public Effect {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(idempotency, "idempotency");
    }
  }
}
