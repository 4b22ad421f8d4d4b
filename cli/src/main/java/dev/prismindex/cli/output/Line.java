package dev.prismindex.cli.output;

import dev.prismindex.cli.output.Style.Role;
import dev.prismindex.tool.SafeText;
import java.nio.charset.StandardCharsets;

/**
 * One line of human output under construction. Each piece of text is escaped by core's
 * {@link SafeText#escapeField} as it is appended (controls, DEL, C1 controls, bidirectional and
 * invisible format characters shown as {@code \n}, {@code \t}, {@code \}{@code u001B}, ...), and
 * only then wrapped in its {@link Style} codes: the only raw escape sequences a line can hold are
 * the printer's own colours. Escaping is idempotent, so an already escaped snippet passes as is.
 */
final class Line {
  private final Style style;
  private final StringBuilder b = new StringBuilder();

  Line(Style style) {
    this.style = style;
  }

  /** Appends {@code text}, escaped. */
  Line text(String text) {
    b.append(SafeText.escapeField(text));
    return this;
  }

  /**
   * Appends {@code text} as it is: text {@link SafeText#escape} made, without a tab (what
   * {@link #text(String)} would append unchanged, escaping being idempotent).
   */
  Line escaped(String text) {
    b.append(text);
    return this;
  }

  /** Appends {@code text}, escaped, then in the colour of {@code role}. */
  Line text(Role role, String text) {
    b.append(style.paint(role, SafeText.escapeField(text)));
    return this;
  }

  /** The line and a line feed, in UTF-8; the line is done then. */
  byte[] withNewline() {
    return b.append('\n').toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return b.toString();
  }
}
