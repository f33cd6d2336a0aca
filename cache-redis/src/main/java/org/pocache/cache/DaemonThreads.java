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
package org.pocache.cache;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for POCache's background threads, shared by every module: daemon
 * threads (a client's JVM, a task or the NameNode, never waits on them to exit) with
 * names that say whose they are in a thread dump.
 */
public final class DaemonThreads {
  private DaemonThreads() {
  }

  /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
  public static ThreadFactory numbered(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> daemon(r, prefix + "-" + n.incrementAndGet());
  }

  /** Threads all named {@code name}: for executors of one thread. */
  public static ThreadFactory named(String name) {
    return r -> daemon(r, name);
  }

  /** A daemon thread running {@code r}, not started. */
  public static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
