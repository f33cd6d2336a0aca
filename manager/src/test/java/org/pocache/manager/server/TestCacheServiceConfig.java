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
package org.pocache.manager.server;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.PoCacheConfigKeys;

/** A bad Manager key fails at startup with the key's name, before anything is started. */
public class TestCacheServiceConfig {
  @Test
  public void badKeysAreNamed() {
    bad(PoCacheConfigKeys.CSAC_EVICTION_KEY, "fifo-ish", "lru, lfu, arc, s3fifo");
    bad(PoCacheConfigKeys.CSAC_ADMISSION_KEY, "always", "cache-upon-access");
    bad(PoCacheConfigKeys.CSAC_PREDICTION_KEY, "oracle", "recency");
    bad(PoCacheConfigKeys.CODE_K_KEY, "1", "[2, 32]");
    bad(PoCacheConfigKeys.CODE_M_KEY, "5", "[1, 4]");
    bad(PoCacheConfigKeys.SUBBLOCK_KEY, "1k", "must be in [4096, ");
    bad(PoCacheConfigKeys.SUBBLOCK_KEY, "1 MiB", "optionally with a binary suffix");
    bad(PoCacheConfigKeys.CACHE_CAPACITY_KEY, "0", "[1, ");
    bad(PoCacheConfigKeys.CACHE_MAX_FILE_KEY, "-1", "a number of bytes");
    bad(PoCacheConfigKeys.CSAC_PREFETCH_RATIO_KEY, "1.5", "[0.0, 1.0]");
    bad(PoCacheConfigKeys.MANAGER_RESERVATION_TTL_KEY, "soon", "optionally with a unit (ms, s, m, h, d)");
    bad(PoCacheConfigKeys.REDIS_HOSTS_KEY, "nohostport", "");
    bad(PoCacheConfigKeys.CSAC_STRAGGLER_KEEP_KEY, "yes", "dfs.pocache.csac.straggler.keep must be true or false");
  }

  @Test
  public void aFillerThatIsNotOneIsNamed() throws Exception {
    Configuration c = new Configuration();
    c.set(PoCacheConfigKeys.MANAGER_FILLER_KEY, String.class.getName());
    c.set(PoCacheConfigKeys.MANAGER_ADDRESS_KEY, "127.0.0.1:0");
    try (Manager m = Manager.start(c, null)) {
      fail("started with a String as fill worker");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(PoCacheConfigKeys.MANAGER_FILLER_KEY
          + " = java.lang.String"));
    }
  }

  private static void bad(String key, String value, String says) {
    Configuration c = new Configuration();
    c.set(key, value);
    try {
      new CacheService(c, null,
          new StragglerMonitor(detector(), () -> detector(), 60_000, 3000, System::currentTimeMillis),
          System::currentTimeMillis).close();
      fail(key + " = " + value + " accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(key) && e.getMessage().contains(says));
    }
  }

  private static StragglerDetector detector() {
    return Detectors.create(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, "median-mad", 3, 10_000, 60_000, 0.3);
  }
}
