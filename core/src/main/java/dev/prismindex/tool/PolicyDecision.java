package dev.prismindex.tool;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The answer of an {@link ExecutionPolicy}.
 *
 * @param allowed whether the call may run
 * @param reason why it may not; shown to the caller as the error text of a denied call
 */
public record PolicyDecision(boolean allowed, @Nullable String reason) {

  private static final PolicyDecision ALLOW = new PolicyDecision(true, null);

  /** Lets the call run. */
  public static PolicyDecision allow() {
    return ALLOW;
  }

  /**
   * Refuses the call.
   *
   * @param reason the text the caller sees as the tool's error
   * @throws NullPointerException if {@code reason} is {@code null}
   */
  public static PolicyDecision deny(String reason) {
    return new PolicyDecision(false, Objects.requireNonNull(reason, "reason"));
  }
}
