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
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TestPoCacheConfig {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void defaultsComeFromTheKeysClass() {
    assertFalse(PoCacheConfig.isEnabled(new Configuration()));
  }

  /**
   * An operator's core-site.xml turns POCache on: nothing set in code, the file
   * found on the class path as a Hadoop daemon finds its conf dir. (ITContractSuites in
   * the HDFS module runs daemons and clients configured by site files on the class path.)
   */
  @Test
  public void siteFilesWinOverPocacheDefaults() throws Exception {
    File confDir = tmp.newFolder("conf");
    Files.write(new File(confDir, "core-site.xml").toPath(), ("<?xml version=\"1.0\"?>\n<configuration>\n"
        + "  <property><name>" + PoCacheConfigKeys.ENABLED_KEY + "</name><value>true</value></property>\n"
        + "  <property><name>" + PoCacheConfigKeys.CODE_K_KEY + "</name><value>6</value></property>\n"
        + "</configuration>\n").getBytes(StandardCharsets.UTF_8));
    ClassLoader saved = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {confDir.toURI().toURL()}, saved)) {
      Thread.currentThread().setContextClassLoader(loader);
      Configuration conf = new Configuration();
      assertTrue(PoCacheConfig.isEnabled(conf));
      assertEquals(6, PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_K_KEY, PoCacheConfigKeys.CODE_K_DEFAULT, 2,
          32));
    } finally {
      Thread.currentThread().setContextClassLoader(saved);
    }
  }

  @Test
  public void coderChoiceIsValidated() {
    Configuration conf = new Configuration(false);
    assertEquals("auto", PoCacheConfig.getCoder(conf));
    conf.set(PoCacheConfigKeys.CODER_KEY, " ISAL ");
    assertEquals("isal", PoCacheConfig.getCoder(conf));
    conf.set(PoCacheConfigKeys.CODER_KEY, "isa-l");
    try {
      PoCacheConfig.getCoder(conf);
      fail();
    } catch (IllegalArgumentException e) {
      assertEquals("dfs.pocache.coder must be one of auto, isal, java, got 'isa-l'", e.getMessage());
    }
  }

  @Test
  public void booleansAreStrict() {
    Configuration conf = new Configuration(false);
    conf.set(PoCacheConfigKeys.ENABLED_KEY, " TRUE ");
    assertTrue(PoCacheConfig.isEnabled(conf));
    conf.set(PoCacheConfigKeys.ENABLED_KEY, "ture");
    try {
      PoCacheConfig.isEnabled(conf);
      fail("a typo must not silently mean false");
    } catch (IllegalArgumentException e) {
      assertEquals("dfs.pocache.enabled must be true or false, got 'ture'", e.getMessage());
    }
  }
}
