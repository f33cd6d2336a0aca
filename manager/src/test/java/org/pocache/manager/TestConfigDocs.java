/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.pocache.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
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
 * PoCacheConfigKeys, pocache-default.xml and the key tables of docs/configuration.md
 * name the same keys with the same defaults and descriptions (scripts/lib/configdoc.py
 * writes the tables from the XML), and every key the README shows has its default.
 */
public class TestConfigDocs {
  private static final Pattern ROW =
      Pattern.compile("(?m)^\\|\\s*`(dfs\\.pocache\\.[^`]+)`\\s*\\|\\s*`([^`]*)`\\s*\\|\\s*(.*?)\\s*\\|\\s*$");

  @Test
  public void keysDefaultsXmlAndDocsAgree() throws Exception {
    Map<String, String> fromClass = keysFromClass();
    Map<String, String> fromXml = new TreeMap<>();
    Map<String, String> descriptions = new TreeMap<>();
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(PoCacheConfig.DEFAULT_RESOURCE)) {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = text(p, "name");
        String description = text(p, "description").replaceAll("\\s+", " ");
        assertTrue(name + " has no description in " + PoCacheConfig.DEFAULT_RESOURCE, description.length() > 20);
        fromXml.put(name, text(p, "value"));
        descriptions.put(name, description);
      }
    }
    assertEquals("PoCacheConfigKeys vs " + PoCacheConfig.DEFAULT_RESOURCE, fromClass, fromXml);

    File page = source("docs/configuration.md");
    Map<String, String> fromPage = new TreeMap<>();
    Map<String, String> meanings = new TreeMap<>();
    Matcher m = ROW.matcher(read(page));
    while (m.find()) {
      fromPage.put(m.group(1), m.group(2));
      meanings.put(m.group(1), m.group(3));
    }
    String regenerate = " (scripts/lib/configdoc.py rewrites its tables from " + PoCacheConfig.DEFAULT_RESOURCE + ")";
    assertEquals("PoCacheConfigKeys vs the key tables in " + page + regenerate, fromClass, fromPage);
    assertEquals("descriptions in " + PoCacheConfig.DEFAULT_RESOURCE + " vs " + page + regenerate,
        descriptions, meanings);

    File readme = source("README.md");
    Matcher r = ROW.matcher(read(readme));
    int shown = 0;
    while (r.find()) {
      shown++;
      assertEquals("default of " + r.group(1) + " in " + readme, fromClass.get(r.group(1)), r.group(2));
    }
    assertTrue("the README shows no keys", shown > 0);
  }

  private static File source(String relative) {
    return new File(System.getProperty("pocache.source.root", ".."), relative);
  }

  private static String read(File f) throws IOException {
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
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
