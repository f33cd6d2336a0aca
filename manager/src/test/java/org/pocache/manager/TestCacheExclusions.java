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
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class TestCacheExclusions {
  private static CacheExclusions with(String value) {
    Configuration c = new Configuration(false);
    if (value != null) {
      c.set(PoCacheConfigKeys.EXCLUDE_DIRS_KEY, value);
    }
    return CacheExclusions.from(c);
  }

  @Test
  public void stagingIsExcludedByDefaultTaskOutputsAreNot() {
    CacheExclusions x = with(null);
    assertEquals(".staging", x.excludedBy("/tmp/hadoop-yarn/staging/alice/.staging/job_1_0001/job.jar"));
    assertNull(x.excludedBy("/out/_temporary/0/_temporary/attempt_1_m_000000_0/part-00000"));
    assertNull(x.excludedBy("/out/part-00000"));
    assertNull("a file named like a directory is not under it", x.excludedBy("/job/.staging"));
    assertNull(x.excludedBy("/x/.stagingarea/y"));
    assertNull(x.excludedBy("/"));
  }

  @Test
  public void operatorsChooseTheNames() {
    CacheExclusions x = with(" .staging , _temporary ");
    assertEquals("_temporary", x.excludedBy("/out/_temporary/0/_temporary/attempt_1_m_000000_0/part-00000"));
    assertNull(x.excludedBy("/out/part-00000"));
    assertNull(with("").excludedBy("/a/.staging/b"));
  }

  @Test
  public void aPathIsRefusedNamingTheKey() {
    try {
      with(".staging,/user/tmp");
      fail("a path was accepted as a directory name");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(PoCacheConfigKeys.EXCLUDE_DIRS_KEY));
      assertTrue(e.getMessage(), e.getMessage().contains("/user/tmp"));
    }
  }

  @Test
  public void theFormerKeyIsReadWhenTheNewOneIsNotSet() {
    Configuration c = new Configuration(false);
    c.set(PoCacheConfigKeys.DEPRECATED_WRITE_EXCLUDE_DIRS, "_temporary");
    assertEquals("_temporary", CacheExclusions.from(c).excludedBy("/out/_temporary/part-0"));
    assertNull(CacheExclusions.from(c).excludedBy("/a/.staging/b"));
    c.set(PoCacheConfigKeys.EXCLUDE_DIRS_KEY, ".staging");
    assertEquals("the current key wins", ".staging", CacheExclusions.from(c).excludedBy("/a/.staging/b"));
    assertNull(CacheExclusions.from(c).excludedBy("/out/_temporary/part-0"));
  }
}
