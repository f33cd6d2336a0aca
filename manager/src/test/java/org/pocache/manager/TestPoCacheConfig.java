package org.pocache.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class TestPoCacheConfig {
  @Test
  public void defaultsComeFromPocacheDefaultXml() {
    PoCacheConfig.init();
    Configuration conf = new Configuration();
    assertEquals("false", conf.get(PoCacheConfigKeys.ENABLED_KEY));
    assertFalse(PoCacheConfig.isEnabled(conf));
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
