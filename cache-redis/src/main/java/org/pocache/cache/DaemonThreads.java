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
