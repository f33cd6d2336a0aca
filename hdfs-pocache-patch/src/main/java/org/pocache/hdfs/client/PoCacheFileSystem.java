package org.pocache.hdfs.client;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.pocache.manager.PoCacheConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client hook of POCache: set {@code fs.hdfs.impl} to this class and every
 * {@code hdfs://} FileSystem an application (MapReduce, Spark, the shell) obtains
 * from its configuration is this one.
 *
 * <p>With {@code dfs.pocache.enabled=false}, or for any file POCache does not cache,
 * it is exactly DistributedFileSystem. The POCache data path (incremental encoding
 * on write, proactive and degraded reads) is not in this build yet: with the switch
 * on it says so once in the log and still behaves as stock HDFS.
 */
public class PoCacheFileSystem extends DistributedFileSystem {
  private static final Logger LOG = LoggerFactory.getLogger(PoCacheFileSystem.class);
  private static final AtomicBoolean WARNED = new AtomicBoolean();

  private boolean pocacheEnabled;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    // Validate before connecting: a bad switch value fails here, naming the key.
    pocacheEnabled = PoCacheConfig.isEnabled(conf);
    super.initialize(uri, conf);
    if (pocacheEnabled && WARNED.compareAndSet(false, true)) {
      LOG.warn("dfs.pocache.enabled is true, but this build has no POCache data path yet;"
          + " reads and writes go to HDFS unchanged");
    }
  }

  /** Whether {@code dfs.pocache.enabled} was on when this FileSystem was initialized. */
  public boolean isPoCacheEnabled() {
    return pocacheEnabled;
  }
}
