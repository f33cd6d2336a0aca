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
package org.pocache.hdfs.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DFSInputStream;

/**
 * A second HDFS client of the file system, made at its first use, whose streams give up
 * on a block at once when none of its DataNodes answers. HDFS's own client then waits
 * and asks again, with back-off ({@code dfs.client.max.block.acquire.failures} rounds of
 * seconds each), which is right when nothing else holds the bytes, and is what a
 * DataNode restart costs a reader of a block with one replica. A file with cached parity
 * has something else: its sequential reads on the caller's thread go through this
 * client's stream, and a block whose DataNode is down is handed to parity at once (see
 * {@link PoCacheInputStream}). Everything that reads as HDFS would, the fallbacks
 * included, keeps the file system's own client.
 *
 * <p>The client shares the file system's configuration otherwise (its peer cache, SASL,
 * checksum and short-circuit settings) and its statistics, so bytes read through it
 * count as HDFS's own reads do.
 */
final class FailFastClient implements Closeable {
  /** HDFS's key for the rounds a stream waits for a block's DataNodes before it fails. */
  static final String ACQUIRE_FAILURES_KEY = "dfs.client.max.block.acquire.failures";

  private final URI uri;
  private final Configuration conf;
  private final FileSystem.Statistics stats;
  private DFSClient client;
  private boolean closed;

  FailFastClient(URI uri, Configuration base, FileSystem.Statistics stats) {
    this.uri = uri;
    this.conf = new Configuration(base);
    this.conf.setInt(ACQUIRE_FAILURES_KEY, 0);
    this.stats = stats;
  }

  /** A stream of {@code src} that fails at once where no DataNode of a block answers. */
  DFSInputStream open(String src, int bufferSize) throws IOException {
    return client().open(src, bufferSize, true);
  }

  private synchronized DFSClient client() throws IOException {
    if (closed) {
      throw new IOException("Filesystem closed");
    }
    if (client == null) {
      client = new DFSClient(uri, conf, stats);
    }
    return client;
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
