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
        Policies.prediction("p", "recency", 10), 0.1, Long.MAX_VALUE, () -> now[0]);
    c.setStragglers(Collections.singleton("dn9"));
    FileRef fresh = new FileRef(1, 10);
    assertTrue(c.admitNew(fresh));
    assertFalse("query still follows line 7 for reads", c.query(fresh) == Decision.SHOULD_CACHE);
    assertFalse("heavier than the cache", c.admitNew(new FileRef(2, 101)));
    c.insert(fresh);
    assertFalse("already cached", c.admitNew(fresh));
  }
}
