package org.pocache.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * PoCacheConfigKeys, pocache-default.xml and the README's configuration table name
 * the same keys with the same defaults, and every key has a description.
 */
public class TestConfigDocs {

  @Test
  public void keysDefaultsXmlAndReadmeAgree() throws Exception {
    Map<String, String> fromClass = keysFromClass();
    Map<String, String> fromXml = new TreeMap<>();
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(PoCacheConfig.DEFAULT_RESOURCE)) {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = text(p, "name");
        assertTrue(name + " has no description in " + PoCacheConfig.DEFAULT_RESOURCE,
            text(p, "description").length() > 20);
        fromXml.put(name, text(p, "value"));
      }
    }
    assertEquals("PoCacheConfigKeys vs " + PoCacheConfig.DEFAULT_RESOURCE, fromClass, fromXml);

    File readme = new File(System.getProperty("pocache.source.root", ".."), "README.md");
    String text = new String(Files.readAllBytes(readme.toPath()), StandardCharsets.UTF_8);
    Map<String, String> fromReadme = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^\\|\\s*`(dfs\\.pocache\\.[^`]+)`\\s*\\|\\s*`([^`]*)`\\s*\\|").matcher(text);
    while (m.find()) {
      fromReadme.put(m.group(1), m.group(2));
    }
    assertEquals("PoCacheConfigKeys vs the configuration table in " + readme, fromClass, fromReadme);
  }

  private static Map<String, String> keysFromClass() throws Exception {
    Map<String, String> out = new TreeMap<>();
    for (Field f : PoCacheConfigKeys.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_KEY") && f.getType() == String.class) {
        String base = f.getName().substring(0, f.getName().length() - "_KEY".length());
        Field d = PoCacheConfigKeys.class.getDeclaredField(base + "_DEFAULT");
        out.put((String) f.get(null), String.valueOf(d.get(null)));
      }
    }
    assertTrue("no keys found", !out.isEmpty());
    return out;
  }

  private static String text(Element parent, String tag) {
    NodeList l = parent.getElementsByTagName(tag);
    return l.getLength() == 0 ? "" : l.item(0).getTextContent().trim();
  }
}
