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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.InMemoryParityStore;
import org.pocache.csac.detect.Detectors;
import org.pocache.csac.detect.StragglerDetector;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.Reservation;
import org.pocache.manager.protocol.WriteAdmission;

/**
 * A {@link CacheService} on fakes: a namespace in a map, an in-memory parity store, a
 * fill worker that records what it is given, and a clock that moves only when a test
 * says so. Housekeeping runs only on {@link #tick()} (the periodic tick is an hour
 * apart), so every test is deterministic and takes milliseconds.
 */
final class ManagerHarness implements AutoCloseable {
  static final long BLOCK = 16 << 10;
  static final int SUBBLOCK = 4 << 10;

  final AtomicLong now = new AtomicLong(1_000_000);
  final FakeNamespace namespace = new FakeNamespace();
  final InMemoryParityStore store;
  final RecordingFiller filler = new RecordingFiller();
  final Configuration conf;
  final StragglerMonitor stragglers;
  CacheService service;

  ManagerHarness(String... keyValues) {
    this(new InMemoryParityStore(), keyValues);
  }

  ManagerHarness(InMemoryParityStore store, String... keyValues) {
    this.store = store;
    conf = new Configuration(false);
    conf.set(PoCacheConfigKeys.SUBBLOCK_KEY, Integer.toString(SUBBLOCK));
    conf.set(PoCacheConfigKeys.PARITY_PROTECTION_KEY, "none");
    conf.set(PoCacheConfigKeys.CACHE_MIN_FILE_KEY, "0");
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    stragglers = new StragglerMonitor(detector(), () -> detector(), 60_000, 3000, now::get);
    start();
  }

  /** Starts a Manager on the same store and namespace (a restart after {@link #stopService}). */
  void start() {
    service = new CacheService(conf, namespace, stragglers, now::get, s -> store);
    service.start(3_600_000, filler);
    tick(); // the first tick, which start() schedules at once, plus one more
  }

  void stopService() {
    service.close();
  }

  /** One housekeeping tick, and everything it queued (deletes, index writes). */
  void tick() {
    try {
      service.runHousekeepingNow();
      service.housekeeping().submit(() -> { }).get();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  void advance(long millis) {
    now.addAndGet(millis);
  }

  /** A complete file of {@code blocks} blocks at {@code path}. */
  FileInfo file(String path, int blocks) {
    return namespace.put(path, blocks * BLOCK, true);
  }

  /**
   * Writes {@code path} through the Manager as a client would: admitted while open,
   * parity stored, committed when closed. Returns its descriptor as committed.
   */
  ParityDescriptor writeCached(String path, int blocks) throws IOException {
    FileInfo open = namespace.put(path, 0, false);
    ReservationOrRefusal r = admit(path);
    if (r.reservation == null) {
      throw new AssertionError(path + " not admitted: " + r.refusal);
    }
    ParityDescriptor d = r.reservation.getParity();
    FileInfo f = namespace.put(path, blocks * BLOCK, true, open.id);
    long bytes = storeParity(d, f.length);
    service.commit(r.reservation.getId(), f.id, f.length, bytes, null);
    return d;
  }

  static final class ReservationOrRefusal {
    final Reservation reservation;
    final String refusal;

    ReservationOrRefusal(WriteAdmission r) {
      this.reservation = r.hasReservation() ? r.getReservation() : null;
      this.refusal = r.getReason();
    }
  }

  ReservationOrRefusal admit(String path) throws IOException {
    return new ReservationOrRefusal(service.admitWrite(path, 0));
  }

  /** Puts every parity value of {@code d} for a file of {@code length} bytes; returns the bytes stored. */
  long storeParity(ParityDescriptor d, long length) {
    long stripeBytes = d.getBlockSize() * d.getK();
    int stripes = (int) Math.max(1, (length + stripeBytes - 1) / stripeBytes);
    int per = (int) (d.getBlockSize() / d.getSubblockBytes());
    long bytes = 0;
    try {
      for (int s = 0; s < stripes; s++) {
        for (int j = 0; j < per; j++) {
          for (int p = 0; p < d.getM(); p++) {
            store.put(store.key(d.getFileId(), d.getGeneration(), s, j, p), new int[d.getK()],
                ByteBuffer.allocate(d.getSubblockBytes()));
            bytes += d.getSubblockBytes();
          }
        }
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return bytes;
  }

  @Override
  public void close() {
    service.close();
  }

  private static StragglerDetector detector() {
    return Detectors.create(PoCacheConfigKeys.STRAGGLER_DETECTOR_KEY, "median-mad", 3, 10_000, 60_000, 0.3);
  }

  /** The NameNode as a map: files by path and by id. */
  static final class FakeNamespace implements Namespace {
    private final Map<String, FileInfo> byPath = new HashMap<>();
    private final Map<Long, FileInfo> byId = new HashMap<>();
    private long nextId = 16385;
    private long mtime = 1;

    synchronized FileInfo put(String path, long length, boolean complete) {
      return put(path, length, complete, nextId++);
    }

    /** (Re)writes file {@code id} at {@code path}: a new modification time. */
    synchronized FileInfo put(String path, long length, boolean complete, long id) {
      List<String> dns = new ArrayList<>();
      for (int b = 0; b < Math.max(1, (length + BLOCK - 1) / BLOCK); b++) {
        dns.add("127.0.0.1:" + (9866 + b % 5));
      }
      FileInfo f = new FileInfo(id, path, length, mtime++, BLOCK, 0, 0, complete, dns, 7 * length + id);
      FileInfo old = byPath.put(path, f);
      if (old != null && old.id != id) {
        byId.remove(old.id);
      }
      byId.put(id, f);
      return f;
    }

    synchronized void delete(String path) {
      FileInfo f = byPath.remove(path);
      if (f != null) {
        byId.remove(f.id);
      }
    }

    @Override
    public synchronized FileInfo open(String path) throws IOException {
      FileInfo f = byPath.get(path);
      if (f == null) {
        throw new FileNotFoundException(path);
      }
      return f;
    }

    @Override
    public synchronized FileInfo byId(long fileId) {
      FileInfo f = byId.get(fileId);
      return f == null ? null : new FileInfo(f.id, null, f.length, f.modificationTime, f.blockSize, f.ecDataUnits,
          f.ecCellSize, f.complete, f.dataNodes, f.blocksDigest);
    }

    @Override
    public synchronized boolean exists(String path) {
      return byPath.containsKey(path);
    }
  }

  /** A fill worker that takes every fill and remembers it. */
  static final class RecordingFiller implements ParityFiller {
    final List<Long> reservations = new ArrayList<>();
    final List<ParityDescriptor> targets = new ArrayList<>();
    volatile boolean accept = true;

    @Override
    public synchronized boolean fill(long reservationId, ParityDescriptor target) {
      if (accept) {
        reservations.add(reservationId);
        targets.add(target);
      }
      return accept;
    }

    @Override
    public void close() {
    }

    synchronized List<ParityDescriptor> taken() {
      return new ArrayList<>(targets);
    }
  }

  static List<String> list(String... s) {
    return Arrays.asList(s);
  }
}
