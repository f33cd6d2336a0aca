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
package org.pocache.csac;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Collections;
import org.junit.Test;
import org.pocache.csac.policy.Policies;

/** Write admission: the admission policy decides, whatever the straggler list says. */
public class TestCsacAdmitNew {
  @Test
  public void stragglersDoNotBlockNewFiles() {
    long[] now = {0};
    Csac c = new Csac(100, Policies.admission("a", "cache-upon-access", 100, 10), Policies.eviction("e", "lru", 100),
        Policies.prediction("p", "recency", 10), 0.1, Long.MAX_VALUE,
        Policies.eviction("e", "lru", 100), () -> now[0]);
    c.setStragglers(Collections.singleton("dn9"));
    FileRef fresh = new FileRef(1, 10);
    assertTrue(c.admitNew(fresh));
    assertFalse("query still follows line 7 for reads", c.query(fresh) == Decision.SHOULD_CACHE);
    assertFalse("heavier than the cache", c.admitNew(new FileRef(2, 101)));
    c.insert(fresh);
    assertFalse("already cached", c.admitNew(fresh));
  }
}
