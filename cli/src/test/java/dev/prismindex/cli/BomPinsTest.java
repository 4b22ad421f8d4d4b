package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM pins every third-party artifact the build runs with, at the version the build resolves
 * (issue 39, item 7): this module's test class path holds everything the published modules bring
 * at run time (the engine, the model, the OpenSearch backend), so each of its jars must be pinned
 * by bom/pom.xml at exactly its version, but for the test libraries. A consumer who imports the
 * BOM then runs what was tested.
 */
class BomPinsTest {

  /** Test-only libraries (JUnit, AssertJ and theirs): pinned in ../pom.xml, not in the BOM. */
  private static final Set<String> TEST_ONLY = Set.of("junit-jupiter", "junit-jupiter-api",
      "junit-jupiter-engine", "junit-jupiter-params", "junit-platform-commons",
      "junit-platform-engine", "junit-platform-launcher", "assertj-core", "byte-buddy",
      "apiguardian-api", "opentest4j", "surefire-booter", "surefire-api", "surefire-logger-api",
      "surefire-shared-utils", "common-java5", "common-junit3", "common-junit4",
      "common-junit48", "surefire-junit-platform");

  /** The BOM's pins: artifactId to version (properties resolved; Jackson's from its version). */
  static Map<String, String> pins(Path bom) throws Exception {
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(bom.toFile());
    Map<String, String> properties = new HashMap<>();
    NodeList props = ((Element) doc.getElementsByTagName("properties").item(0)).getChildNodes();
    for (int i = 0; i < props.getLength(); i++) {
      if (props.item(i) instanceof Element e) {
        properties.put(e.getTagName(), e.getTextContent().strip());
      }
    }
    Map<String, String> pins = new HashMap<>();
    NodeList deps = doc.getElementsByTagName("dependency");
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      if (d.getParentNode().getParentNode().getNodeName().equals("exclusions")) {
        continue;
      }
      String version = text(d, "version");
      for (Map.Entry<String, String> p : properties.entrySet()) {
        version = version.replace("${" + p.getKey() + "}", p.getValue());
      }
      pins.put(text(d, "artifactId"), version);
    }
    return pins;
  }

  private static String text(Element e, String tag) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(tag)) {
        return c.getTextContent().strip();
      }
    }
    return "";
  }

  @Test
  void everyThirdPartyJarOfTheBuildIsPinnedAtItsVersion() throws Exception {
    Map<String, String> pins = pins(Path.of("../bom/pom.xml"));
    String jackson = pins.get("jackson-bom");
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      if (!entry.endsWith(".jar") || jar.getNameCount() < 3) {
        continue;
      }
      String version = jar.getParent().getFileName().toString();
      String artifact = jar.getParent().getParent().getFileName().toString();
      if (!jar.getFileName().toString().startsWith(artifact + "-" + version)
          || artifact.startsWith("prism-index-") || TEST_ONLY.contains(artifact)) {
        continue;
      }
      checked++;
      String pinned = pins.get(artifact);
      if (pinned == null && entry.contains("/com/fasterxml/jackson/")) {
        pinned = version.equals(jackson) || jackson.startsWith(version + ".") ? version : jackson;
      }
      if (pinned == null) {
        problems.add(artifact + " " + version + " is not pinned by the BOM");
      } else if (!pinned.equals(version)) {
        problems.add(artifact + " " + version + " where the BOM pins " + pinned);
      }
    }
    assertThat(checked).as("third-party jars on the class path").isGreaterThan(30);
    assertThat(problems).isEmpty();
    assertThat(pins.get("jna")).isEqualTo("5.17.0");
  }
}
