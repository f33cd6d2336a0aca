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
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

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
 * <p>It waits on a DataNode for at most dfs.pocache.read.datanode.timeout.ms, not HDFS's
 * socket timeout: a restarting DataNode listens a while before it serves, and a stream
 * that connects in between would wait there.
 *
 * <p>The client shares the file system's configuration otherwise (its peer cache, SASL,
 * checksum and short-circuit settings) and its statistics, so bytes read through it
 * count as HDFS's own reads do.
 */
final class FailFastClient implements Closeable {
  /** HDFS's key for the rounds a stream waits for a block's DataNodes before it fails. */
  static final String ACQUIRE_FAILURES_KEY = "dfs.client.max.block.acquire.failures";
  /** HDFS's key for how long a stream waits on a DataNode to connect or to send, milliseconds. */
  static final String SOCKET_TIMEOUT_KEY = "dfs.client.socket-timeout";
  /** HDFS's key for the name of the context (connection and short-circuit caches) clients share. */
  static final String CONTEXT_KEY = "dfs.client.context";
  /** HDFS's default for {@link #SOCKET_TIMEOUT_KEY}. */
  private static final int SOCKET_TIMEOUT_DEFAULT = 60_000;

  private final URI uri;
  private final Configuration conf;
  private final FileSystem.Statistics stats;
  private Client client;
  private boolean closed;

  /**
   * A client of {@code uri} configured as {@code base}, but for the retries and for the
   * time it waits on a DataNode: at most {@code timeoutMillis} to connect or to receive its
   * next bytes. A restarting DataNode listens before it serves: a stream that connects then
   * waits until it does, and with HDFS's timeout (a minute) a reader would wait all that time
   * on a block parity could stand in for.
   */
  FailFastClient(URI uri, Configuration base, FileSystem.Statistics stats, int timeoutMillis) {
    this.uri = uri;
    this.conf = new Configuration(base);
    this.conf.setInt(ACQUIRE_FAILURES_KEY, 0);
    this.conf.setInt(SOCKET_TIMEOUT_KEY,
        Math.min(timeoutMillis, base.getInt(SOCKET_TIMEOUT_KEY, SOCKET_TIMEOUT_DEFAULT)));
    // A context of its own: HDFS's clients of one context share their cache of DataNode
    // connections, and a connection keeps the timeout of the client that opened it.
    this.conf.set(CONTEXT_KEY, base.get(CONTEXT_KEY, "default") + "-pocache-fail-fast");
    this.stats = stats;
  }

  /** A stream of {@code src} that fails at once where no DataNode of a block answers. */
  DFSInputStream open(String src, int bufferSize) throws IOException {
    return client().open(src, bufferSize, true);
  }

  /**
   * As {@link #open(String, int)}, with the blocks and locations the NameNode gave the
   * file system's own stream of {@code src} moments ago ({@code known}, for the file's
   * whole length): the stream starts from them instead of asking the NameNode again. A
   * sequential reader opens several such streams (its direct reads, its read-ahead, its
   * fetches of whole blocks), and each would otherwise cost a getBlockLocations call.
   */
  DFSInputStream open(String src, int bufferSize, LocatedBlocks known) throws IOException {
    Client c = client();
    c.known.set(known);
    try {
      return c.open(src, bufferSize, true);
    } finally {
      c.known.remove();
    }
  }

  private synchronized Client client() throws IOException {
    if (closed) {
      throw new IOException("Filesystem closed");
    }
    if (client == null) {
      client = new Client(uri, conf, stats);
    }
    return client;
  }

  /**
   * HDFS's client, except that an open may bring the file's blocks along: DFSClient's open
   * asks {@link DFSClient#getLocatedBlocks(String, long)} for them from offset 0, once, and
   * a stream asks for more only past the blocks it has or after a failure.
   */
  private static final class Client extends DFSClient {
    final ThreadLocal<LocatedBlocks> known = new ThreadLocal<>();
    /** Calls that went to the NameNode. */
    final java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();

    Client(URI uri, Configuration conf, FileSystem.Statistics stats) throws IOException {
      super(uri, conf, stats);
    }

    @Override
    public LocatedBlocks getLocatedBlocks(String src, long start) throws IOException {
      LocatedBlocks given = known.get();
      if (given != null && start == 0) {
        known.remove(); // this open's, once
        return given;
      }
      asked.incrementAndGet();
      return super.getLocatedBlocks(src, start);
    }
  }

  /** How often this client's streams asked the NameNode for a file's blocks (for tests). */
  synchronized long locationCalls() {
    return client == null ? 0 : client.asked.get();
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
