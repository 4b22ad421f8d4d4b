package dev.prismindex.examples.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * This project imports the BOM and nothing else pins a version: every third-party jar it runs
 * with must be the version the BOM pins, which is the version prism-index's own build tested
 * (jna 5.17.0, not the 5.16.0 of directory-watcher). Reads the BOM of this checkout
 * ({@code ../../bom/pom.xml}); not part of the example proper: delete it in a copy.
 */
class ClassPathPinsTest {

  private static final Path BOM = Path.of("../../bom/pom.xml");
  private static final Pattern DEPENDENCY = Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*"
      + "<version>([^<]+)</version>");
  private static final Pattern PROPERTY = Pattern.compile("<([a-z0-9.-]+\\.version)>([^<]+)<");

  @Test
  void everyThirdPartyJarIsTheVersionTheBomPins() throws Exception {
    assertTrue(Files.isRegularFile(BOM), "the BOM not found at " + BOM.toAbsolutePath());
    String bom = Files.readString(BOM);
    Map<String, String> properties = new HashMap<>();
    Matcher p = PROPERTY.matcher(bom);
    while (p.find()) {
      properties.put(p.group(1), p.group(2));
    }
    Map<String, String> pins = new HashMap<>();
    Matcher d = DEPENDENCY.matcher(bom);
    while (d.find()) {
      String version = d.group(2);
      for (Map.Entry<String, String> e : properties.entrySet()) {
        version = version.replace("${" + e.getKey() + "}", e.getValue());
      }
      pins.put(d.group(1), version);
    }
    List<String> checked = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      if (!entry.endsWith(".jar") || jar.getNameCount() < 3) {
        continue;
      }
      String version = jar.getParent().getFileName().toString();
      String artifact = jar.getParent().getParent().getFileName().toString();
      String pinned = pins.get(artifact);
      boolean jackson = entry.contains("/com/fasterxml/jackson/");
      boolean tests = entry.contains("/org/junit/") || entry.contains("/org/opentest4j/")
          || entry.contains("/org/apiguardian/") || entry.contains("/org/apache/maven/");
      if (tests || artifact.startsWith("prism-index-") || artifact.equals("slf4j-simple")
          || jackson) {
        continue; // the test tools, prism-index itself, this example's own logger, jackson-bom
      }
      assertEquals(pinned, version, artifact + " on the class path");
      checked.add(artifact);
    }
    assertTrue(checked.contains("jna"), "jna is on the class path: " + checked);
    assertTrue(checked.size() > 10, "third-party jars checked: " + checked);
  }
}
