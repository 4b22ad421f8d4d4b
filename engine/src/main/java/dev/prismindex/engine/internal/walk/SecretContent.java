package dev.prismindex.engine.internal.walk;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Secrets recognised by their content, wherever they stand in a file: the well-known formats of
 * cloud keys, forge, chat and registry tokens and signed web tokens, private-key material, and
 * assignments of a high-entropy value to a name that says secret, password, token or key. Each
 * format is looked for only where a literal it must start with occurs ({@link String#indexOf},
 * cheap), so the scan costs a few passes over the text. Values that documentation uses as
 * examples ({@code AKIAIOSFODNN7EXAMPLE}, {@code ...EXAMPLEKEY}) and placeholders are not secrets.
 */
final class SecretContent {

  /**
   * One format: the kind it reports, a literal every match holds (case-sensitive; most start with
   * it, and a match is looked for from 64 characters before it), and the whole pattern.
   */
  private record Format(String name, String anchor, Pattern pattern) {}

  private static Format format(String name, String anchor, String regex) {
    return new Format(name, anchor, Pattern.compile(regex));
  }

  /**
   * A format anchored on the literal its pattern starts with: the letters, digits, {@code _} and
   * {@code -} before the first other character (less the last when a quantifier follows it).
   */
  private static Format format(String name, String regex) {
    int end = 0;
    while (end < regex.length() && (Character.isLetterOrDigit(regex.charAt(end))
        || regex.charAt(end) == '_' || regex.charAt(end) == '-')) {
      end++;
    }
    if (end < regex.length() && "?*+{".indexOf(regex.charAt(end)) >= 0) {
      end--;
    }
    if (end < 1) {
      throw new IllegalArgumentException("no literal start: " + regex);
    }
    return format(name, regex.substring(0, end), regex);
  }

  /**
   * The token formats, each anchored on the literal its pattern starts with, or on the one given
   * (longer than that, or inside the match).
   */
  private static final List<Format> FORMATS = List.of(
      format("AWS access key id", "AKIA[0-9A-Z]{16}(?![0-9A-Za-z])"),
      format("AWS temporary access key id", "ASIA[0-9A-Z]{16}(?![0-9A-Za-z])"),
      format("GitHub token", "ghp_[0-9A-Za-z]{36}"),
      format("GitHub OAuth token", "gho_[0-9A-Za-z]{36}"),
      format("GitHub user-to-server token", "ghu_[0-9A-Za-z]{36}"),
      format("GitHub server-to-server token", "ghs_[0-9A-Za-z]{36}"),
      format("GitHub refresh token", "ghr_[0-9A-Za-z]{36}"),
      format("GitHub fine-grained token", "github_pat_[0-9A-Za-z_]{60,255}"),
      format("GitLab token", "glpat-[0-9A-Za-z_-]{20,}"),
      format("GitLab deploy token", "gldt-[0-9A-Za-z_-]{20,}"),
      format("GitLab runner token", "glrt-[0-9A-Za-z_-]{20,}"),
      format("Slack token", "xox[abposr]-[0-9A-Za-z]{6,}-[0-9A-Za-z-]{6,}"),
      format("Slack webhook", "hooks.slack.com/",
          "hooks\\.slack\\.com/(?:services|workflows)/T[0-9A-Z]{6,}/[0-9A-Za-z/]{16,}"),
      format("npm token", "npm_[0-9A-Za-z]{36}(?![0-9A-Za-z])"),
      format("PyPI token", "pypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{50,}"),
      format("Stripe live key", "_live_", "(?:sk|rk)_live_[0-9A-Za-z]{20,}"),
      format("Stripe test key", "_test_", "(?:sk|rk)_test_[0-9A-Za-z]{20,}"),
      format("Google API key", "AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"),
      format("Google OAuth client secret", "GOCSPX-[0-9A-Za-z_-]{28}"),
      format("SendGrid key", "SG.", "SG\\.[0-9A-Za-z_-]{22}\\.[0-9A-Za-z_-]{43}"),
      format("JSON web token",
          "eyJ[0-9A-Za-z_-]{10,}\\.eyJ[0-9A-Za-z_-]{10,}\\.[0-9A-Za-z_-]{16,}"),
      // Key material, also inside a JSON string (a cloud service account): a header followed by
      // base64, which a parser's string constant is not.
      format("private key", "PRIVATE KEY-----",
          "-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:\\\\r|\\\\n|\\s)+"
              + "(?:[A-Za-z-]+: [^\\n]*(?:\\\\n|\\n)+)*[0-9A-Za-z+/=]{40,}"));

  /**
   * Words in a name that says secret (looked for in the lower-cased text), followed by an
   * assignment of a literal.
   */
  private static final List<String> NAMES = List.of("secret", "passw", "token", "apikey",
      "api_key", "api-key", "accesskey", "access_key", "access-key", "privatekey", "private_key",
      "private-key", "credential");

  /**
   * What follows the name: the rest of the identifier (a quote closing a key), an assignment
   * ({@code =}, {@code :}, {@code :=}, {@code =>}), and the value, quoted or bare.
   */
  private static final Pattern ASSIGNED = Pattern.compile(
      "[0-9A-Za-z_.-]*[\"']?[ \\t]*(?::=|=>|=|:)[ \\t]*[\"'`]?([^\\s\"'`,;(){}\\[\\]<>]{16,})");

  /**
   * Names, not values: a dotted or {@code ::} path ({@code config.apiKey}, {@code Literal::new}),
   * a snake_case or CONSTANT_CASE identifier ({@code base64_encoded_64_byte_salt}).
   */
  private static final Pattern NOT_A_VALUE = Pattern.compile(
      "[A-Za-z_][A-Za-z0-9_]*(?:(?:::|[.:-])[A-Za-z_][A-Za-z0-9_]*)+"
          + "|[a-z0-9]+(?:_[a-z0-9]+)+|[A-Z0-9]+(?:_[A-Z0-9]+)+");

  /** Words that make a value a placeholder or an example, not a secret. */
  private static final List<String> PLACEHOLDERS = List.of("example", "xxxx", "changeme",
      "placeholder", "your", "dummy", "sample", "redacted", "insert", "replace", "fake",
      "secret", "password", "token", "<", "${", "{{", "%(", "$(");

  private SecretContent() {}

  /** The kind of the first secret found in the first {@code length} bytes, or null. */
  static @Nullable String find(byte[] bytes, int length) {
    String text = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    for (Format f : FORMATS) {
      for (int at = text.indexOf(f.anchor()); at >= 0; at = text.indexOf(f.anchor(), at + 1)) {
        int from = Math.max(0, at - 64); // the pattern may start before its anchor
        Matcher m = f.pattern().matcher(text).region(from, Math.min(text.length(), at + 4096));
        if (m.find() && m.start() <= at && !example(m.group())) {
          return f.name();
        }
      }
    }
    String lower = lowerAscii(bytes, length);
    Matcher value = ASSIGNED.matcher(text);
    for (String name : NAMES) {
      for (int at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
        int end = at + name.length();
        value.region(end, Math.min(text.length(), end + 256));
        if (value.lookingAt() && highEntropy(value.group(1))) {
          return "assignment of " + name;
        }
      }
    }
    return null;
  }

  /** The bytes as Latin-1 text, ASCII capitals in lower case. */
  private static String lowerAscii(byte[] bytes, int length) {
    byte[] b = java.util.Arrays.copyOf(bytes, length);
    for (int i = 0; i < b.length; i++) {
      if (b[i] >= 'A' && b[i] <= 'Z') {
        b[i] += 'a' - 'A';
      }
    }
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  private static boolean example(String match) {
    return match.contains("EXAMPLE");
  }

  /**
   * Whether an assigned value reads as a generated secret: 16 characters or more, letters and
   * digits mixed, at least 3.5 bits of entropy a character (3.0 for 32 hexadecimal digits or more),
   * not a URL, URN, path or name ({@link #NOT_A_VALUE}), not a placeholder.
   */
  static boolean highEntropy(String value) {
    String lower = value.toLowerCase(Locale.ROOT);
    for (String p : PLACEHOLDERS) {
      if (lower.contains(p)) {
        return false;
      }
    }
    if (value.contains("://") || value.startsWith("/") || value.startsWith("./")
        || value.startsWith("urn:") || NOT_A_VALUE.matcher(value).matches()) {
      return false;
    }
    boolean digit = false;
    boolean letter = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      digit |= c >= '0' && c <= '9';
      letter |= c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
    if (!digit || !letter) {
      return false;
    }
    double bits = entropy(value);
    boolean hex = value.length() >= 32 && value.matches("[0-9a-fA-F]+");
    return bits >= (hex ? 3.0 : 3.5);
  }

  /** Shannon entropy in bits a character. */
  static double entropy(String s) {
    int[] counts = new int[128];
    int other = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 128) {
        counts[c]++;
      } else {
        other++;
      }
    }
    double bits = 0;
    for (int n : counts) {
      if (n > 0) {
        double p = (double) n / s.length();
        bits -= p * Math.log(p) / Math.log(2);
      }
    }
    if (other > 0) {
      double p = (double) other / s.length();
      bits -= p * Math.log(p) / Math.log(2);
    }
    return bits;
  }
}
