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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.pocache.manager.protocol.ManagerClient;

/**
 * A client FileSystem's connection to its Managers, made at the first open or create of a
 * file that is not excluded: an ApplicationMaster, a job client or a NodeManager's
 * localizer that only touches staging files never loads the Manager's protocol (a few
 * hundred classes, a connection). The client is made as the user the FileSystem was made
 * for, whichever thread first needs it, so that lookups, reservations and read reports are
 * that user's, as the FileSystem's NameNode calls are. Its first use also fetches the
 * straggler list, so a task's one open already knows the stragglers.
 */
final class ManagerConnection implements AutoCloseable {
  private final Configuration conf;
  private final UserGroupInformation owner;
  /** The Managers of the file system's nameservice (one per NameNode of an HA pair). */
  private final List<InetSocketAddress> addresses;
  private final int timeoutMillis;
  private final Consumer<ManagerClient> made;
  /** Told once when the client cannot be made: the FileSystem turns POCache off. */
  private final Consumer<Throwable> unavailable;
  private final Object lock = new Object();
  private volatile ManagerClient client;
  /** The client could not be made: never tried again. @GuardedBy("lock") */
  private boolean failed;

  /**
   * @param made called with the new client once it is made (under this connection's lock)
   * @param unavailable called once if it cannot be made
   */
  ManagerConnection(Configuration conf, UserGroupInformation owner, List<InetSocketAddress> addresses,
      int timeoutMillis, Consumer<ManagerClient> made, Consumer<Throwable> unavailable) {
    this.conf = conf;
    this.owner = owner;
    this.addresses = addresses;
    this.timeoutMillis = timeoutMillis;
    this.made = made;
    this.unavailable = unavailable;
  }

  /** The Manager's client, made now if need be; null when it cannot be made. */
  ManagerClient get() {
    ManagerClient m = client;
    if (m != null) {
      return m;
    }
    synchronized (lock) {
      if (client == null && !failed) {
        try {
          client = owner.doAs((PrivilegedExceptionAction<ManagerClient>) () ->
              new ManagerClient(addresses, conf, timeoutMillis));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          fail(new IOException("interrupted while connecting to the Manager", e));
          return null;
        } catch (IOException | RuntimeException | LinkageError e) {
          fail(e);
          return null;
        }
        made.accept(client);
      }
      return client;
    }
  }

  private void fail(Throwable e) {
    failed = true;
    unavailable.accept(e);
  }

  /** The client if it was made, else null; never makes it. */
  ManagerClient ifMade() {
    return client;
  }

  @Override
  public void close() {
    ManagerClient m = client;
    if (m != null) {
      m.close();
    }
  }
}
