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
package org.pocache.hdfs.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.pocache.hdfs.tools.PoCacheAdmin;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.protocol.DescriptorLookup;
import org.pocache.manager.protocol.ManagerClient;
import org.pocache.manager.protocol.ParityDescriptor;
import org.pocache.manager.protocol.ReadReport;
import org.pocache.manager.protocol.WriteAdmission;

/**
 * The Manager in the NameNode with a real Redis: descriptors follow writes,
 * commits, changes in HDFS, evictions, expiry, bad input and the admin commands.
 * One cluster for the class; each test uses its own directory.
 */
public class TestManagerCacheIndex {
  private static final long FILE = 4 * ManagerCluster.BLOCK; // one stripe of k = 4 blocks
  private static ManagerCluster cluster;
  private static ManagerClient manager;

  @BeforeClass
  public static void start() throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put(PoCacheConfigKeys.MANAGER_RESERVATION_TTL_KEY, "1500");
    conf.put(PoCacheConfigKeys.CSAC_PREFETCH_RATIO_KEY, "0");
    cluster = ManagerCluster.start(4, conf);
    manager = cluster.client();
    GenericTestUtils.waitFor(() -> cluster.manager().cache().ready(), 50, 10_000);
  }

  @AfterClass
  public static void stop() throws IOException {
    if (manager != null) {
      manager.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  public void committedWriteIsServedWithItsGeneration() throws Exception {
    Path p = new Path("/index/write/a");
    ParityDescriptor reserved = cluster.writeCached(manager, p, FILE + 1000, 1);
    long reservationId = cluster.lastReservationId;
    DescriptorLookup r = manager.getDescriptor(p.toString());
    assertTrue(r.getDecision(), r.hasParity());
    ParityDescriptor d = r.getParity();
    assertEquals(ParityDescriptor.State.CACHED, d.getState());
    assertEquals(reserved.getGeneration(), d.getGeneration());
    assertEquals(FILE + 1000, d.getLength());
    assertEquals(4, d.getK());
    assertEquals(1, d.getM());
    assertEquals(2, d.getStripes()); // 5 blocks: a full stripe and a short one
    assertEquals(ManagerCluster.BLOCK / ManagerCluster.SUBBLOCK, d.getSubstripesPerStripe());
    assertEquals(0b11, d.getCachedStripes()[0]);
    assertEquals(ManagerCluster.BLOCK + 1000, d.getParityBytes()); // what was stored, past the one-stripe reservation
    assertTrue(cluster.parityExists(d));
    // The Redis index holds it, for a restarted Manager (written in the background after the commit).
    org.apache.hadoop.test.GenericTestUtils.waitFor(() -> {
      try {
        return Long.valueOf(1).equals(cluster.redis.client().call("HEXISTS", "pocache:manager-index",
            Long.toString(d.getFileId())));
      } catch (Exception e) {
        return false;
      }
    }, 20, 10_000);

    // A writer whose commit answer was lost asks again: acknowledged, and nothing changes.
    manager.commit(reservationId, d.getFileId(), FILE + 1000, ManagerCluster.BLOCK + 1000);
    assertEquals(d.getGeneration(), manager.getDescriptor(p.toString()).getParity().getGeneration());
    try {
      manager.commit(reservationId, d.getFileId(), FILE + 999, 10);
      fail("a second commit of another length accepted");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("reservation " + reservationId
          + " is no longer open: committed"));
    }
  }

  @Test
  public void appendInvalidatesAndDeletesKeys() throws Exception {
    Path p = new Path("/index/append/a");
    ParityDescriptor d = cluster.writeCached(manager, p, FILE, 2);
    assertTrue(manager.getDescriptor(p.toString()).hasParity());
    try (FSDataOutputStream out = cluster.hdfs.fs().append(p)) {
      out.write(new byte[] {1, 2, 3});
    }
    DescriptorLookup after = manager.getDescriptor(p.toString());
    assertFalse("stale parity served after append", after.hasParity());
    GenericTestUtils.waitFor(() -> !exists(d), 50, 10_000);
  }

  @Test
  public void deletedAndRecreatedFileNeverGetsOldParity() throws Exception {
    Path p = new Path("/index/recreate/a");
    ParityDescriptor old = cluster.writeCached(manager, p, FILE, 3);
    assertTrue(manager.getDescriptor(p.toString()).hasParity());
    cluster.hdfs.fs().delete(p, false);
    cluster.writePlain(p, FILE, 4); // same path and length, new inode
    DescriptorLookup r = manager.getDescriptor(p.toString());
    assertTrue(!r.hasParity() || r.getParity().getFileId() != old.getFileId());
    // The sweep finds the deleted inode and removes its keys.
    GenericTestUtils.waitFor(() -> !exists(old), 50, 10_000);
  }

  @Test
  public void uncommittedReservationExpires() throws Exception {
    Path p = new Path("/index/expire/a");
    try (FSDataOutputStream out = cluster.hdfs.fs().create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
      WriteAdmission a = manager.admitWrite(p.toString(), FILE);
      assertTrue(a.getReason(), a.hasReservation());
      long used = manager.getReport().getUsedBytes();
      assertTrue(used >= ManagerCluster.BLOCK);
      GenericTestUtils.waitFor(() -> reservations() == 0, 50, 10_000);
      try {
        manager.commit(a.getReservation().getId(), a.getReservation().getParity().getFileId(), 0, 0);
        fail("expired reservation committed");
      } catch (IOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("no longer open: expired"));
      }
    }
  }

  /**
   * A write of unknown size reserves the parity of one stripe, and the reservation grows
   * with the file as the NameNode sees its blocks; the commit accounts for what was
   * stored. (Each write used to reserve the parity of the largest cacheable file, so a
   * few concurrent writers held the whole cache and evicted everything else.)
   */
  @Test
  public void aWritesReservationGrowsWithItsFile() throws Exception {
    Path p = new Path("/index/grow/a");
    long b = ManagerCluster.BLOCK;
    WriteAdmission a;
    try (FSDataOutputStream out = cluster.hdfs.fs().create(p, true, 4096, (short) 1, b)) {
      a = manager.admitWrite(p.toString(), 0);
      assertTrue(a.getReason(), a.hasReservation());
      assertEquals("one stripe of k = 4 blocks: m = 1 block of parity", b, reservedFor(p));
      out.write(new byte[(int) (6 * b)]);
      out.hflush();
      // Five blocks complete and the sixth being written: two stripes, two blocks of parity.
      GenericTestUtils.waitFor(() -> reservedFor(p) == 2 * b, 20, 1_000);
    }
    ParityDescriptor r = a.getReservation().getParity();
    // No values were uploaded: a digest table of the right size (all slots empty) stands for them.
    byte[] digests = new byte[(int) (2 * r.getSubstripesPerStripe() * r.getM() * 16)];
    manager.commit(a.getReservation().getId(), r.getFileId(), 6 * b, 2 * b, digests);
    ParityDescriptor d = manager.getDescriptor(p.toString()).getParity();
    assertEquals(2 * b, d.getParityBytes());
  }

  private static long reservedFor(Path p) {
    try {
      for (ParityDescriptor d : manager.listCached(p.toString(), 10).getDescriptors()) {
        if (d.getPath().equals(p.toString())) {
          return d.getParityBytes();
        }
      }
      return -1;
    } catch (IOException e) {
      return -2;
    }
  }

  /** Job staging files are not cached, on write or on read, whoever asks. */
  @Test
  public void stagingFilesAreNotAdmitted() throws Exception {
    Path p = new Path("/index/excluded/.staging/job_1_0001/job.split");
    try (FSDataOutputStream out = cluster.hdfs.fs().create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
      WriteAdmission a = manager.admitWrite(p.toString(), 0);
      assertFalse(a.hasReservation());
      assertTrue(a.getReason(), a.getReason().contains(org.pocache.manager.PoCacheConfigKeys.EXCLUDE_DIRS_KEY));
      out.write(new byte[887]);
    }
    DescriptorLookup r = manager.getDescriptor(p.toString(), true);
    assertFalse(r.getDecision(), r.hasParity() || r.hasFill());
  }

  /**
   * An empty file (a job's _SUCCESS marker) is never cached: written through the
   * client it never reaches the Manager, a commit of it is refused, and reading it
   * admits nothing.
   */
  @Test
  public void anEmptyFileIsNeverCached() throws Exception {
    Path viaClient = new Path("/index/empty/_SUCCESS");
    try (org.pocache.hdfs.client.PoCacheFileSystem fs = cluster.pocacheClient()) {
      fs.create(viaClient).close();
      assertEquals(0, fs.cachedWrites()); // the Manager is asked only once a file is past its first block
      assertEquals(0, fs.abandonedWrites());
      DescriptorLookup r = manager.getDescriptor(viaClient.toString(), true);
      assertFalse(r.getDecision(), r.hasParity() || r.hasFill());
    }
    assertEquals(-1, reservedFor(viaClient));
    Path direct = new Path("/index/empty/direct");
    FSDataOutputStream out = cluster.hdfs.fs().create(direct, true, 4096, (short) 1, ManagerCluster.BLOCK);
    WriteAdmission a = manager.admitWrite(direct.toString(), 0);
    out.close();
    long id = a.getReservation().getId();
    expectError(() -> manager.commit(id, a.getReservation().getParity().getFileId(), 0, 0),
        "fewer than " + org.pocache.manager.PoCacheConfigKeys.CACHE_MIN_FILE_KEY);
    assertEquals(-1, reservedFor(direct));
  }

  /** A file overwritten in place (create with overwrite) loses its parity when the new one is admitted. */
  @Test
  public void anOverwrittenFilesParityIsDroppedWhenTheNewOneIsAdmitted() throws Exception {
    Path p = new Path("/index/overwritten/data");
    ParityDescriptor old = cluster.writeCached(manager, p, FILE, 5);
    ParityDescriptor now = cluster.writeCached(manager, p, FILE, 6);
    assertTrue(old.getFileId() != now.getFileId());
    int listed = 0;
    for (ParityDescriptor d : manager.listCached(p.toString(), 10).getDescriptors()) {
      listed++;
      assertEquals(now.getFileId(), d.getFileId());
    }
    assertEquals(1, listed);
    GenericTestUtils.waitFor(() -> {
      try {
        return !cluster.parityExists(old);
      } catch (Exception e) {
        return false;
      }
    }, 20, 10_000);
  }

  /** An admin listing shows a renamed file under its new name before anyone has read it. */
  @Test
  public void aListingFollowsRenamesNotYetRead() throws Exception {
    Path copying = new Path("/index/listed/data._COPYING_");
    Path p = new Path("/index/listed/data");
    cluster.writeCached(manager, copying, FILE, 4);
    assertTrue(cluster.hdfs.fs().rename(copying, p));
    List<ParityDescriptor> listed = manager.listCached("/index/listed", 10).getDescriptors();
    assertEquals(1, listed.size());
    assertEquals(p.toString(), listed.get(0).getPath());
    assertEquals(0, manager.listCached(copying.toString(), 10).getDescriptors().size());
  }

  /** Parity follows a rename (hdfs dfs -put writes x._COPYING_); the index shows the new name once it is read. */
  @Test
  public void aRenamedFileIsListedUnderItsNewName() throws Exception {
    Path copying = new Path("/index/rename/data._COPYING_");
    Path p = new Path("/index/rename/data");
    ParityDescriptor reserved = cluster.writeCached(manager, copying, FILE, 3);
    assertTrue(cluster.hdfs.fs().rename(copying, p));
    DescriptorLookup r = manager.getDescriptor(p.toString());
    assertTrue(r.getDecision(), r.hasParity());
    assertEquals(reserved.getGeneration(), r.getParity().getGeneration());
    assertEquals(p.toString(), r.getParity().getPath());
    assertEquals(FILE / 4, reservedFor(p));
    assertEquals(-1, reservedFor(copying));
  }

  @Test
  public void badInputIsRefusedAndTheManagerKeepsServing() throws Exception {
    Path p = new Path("/index/bad/a");
    try (FSDataOutputStream out = cluster.hdfs.fs().create(p, true, 4096, (short) 1, ManagerCluster.BLOCK)) {
      expectError(() -> manager.admitWrite(p.toString(), -5), "must be >= 0 bytes (0: unknown), got -5");
      WriteAdmission a = manager.admitWrite(p.toString(), FILE);
      long id = a.getReservation().getId();
      long fileId = a.getReservation().getParity().getFileId();
      expectError(() -> manager.commit(id, fileId, -1, 0), "length of file id " + fileId + " must be >= 0, got -1");
      expectError(() -> manager.commit(id, fileId, 0, -7), "must be >= 0, got -7");
      expectError(() -> manager.commit(id + 12345, fileId, 0, 0), "unknown reservation " + (id + 12345));
      expectError(() -> manager.commit(id, fileId + 1, 0, 0), "is for file id " + fileId);
      // Committing while the file is still open for write aborts the reservation.
      expectError(() -> manager.commit(id, fileId, 0, 0), "still open for write");
      expectError(() -> manager.abort(id, "again"), "no longer open: aborted");
    }
    expectError(() -> manager.reportRead(new ReadReport(987654321L, 0, ReadReport.Outcome.VANILLA)),
        "file id 987654321, which does not exist");
    // Reads still under way report what they saw without naming a file; bad numbers are still refused.
    long seen = manager.getReport().getClientObservations();
    String dn = cluster.hdfs.dataNode(0).getDatanodeId().getXferAddr();
    manager.reportRead(ReadReport.observationsOnly(Collections.singletonList(
        new ReadReport.Observation(dn, 4 << 20, 5000))));
    assertEquals(seen + 1, manager.getReport().getClientObservations());
    // A DataNode the NameNode does not know: ignored, the detector keeps nothing for it.
    manager.reportRead(ReadReport.observationsOnly(Collections.singletonList(
        new ReadReport.Observation("127.0.0.1:1", 4 << 20, 5000))));
    assertEquals(seen + 1, manager.getReport().getClientObservations());
    expectError(() -> manager.reportRead(ReadReport.observationsOnly(Collections.singletonList(
        new ReadReport.Observation("127.0.0.1:1", -1, 5000)))), "needs bytes >= 0");
    expectError(() -> manager.evict("/index/bad/none"), "File does not exist: /index/bad/none");
    expectError(() -> manager.getDescriptor("relative/path"), "path must be absolute");
    expectError(() -> manager.getDescriptor("/index/bad"), "is a directory");
    try {
      manager.getDescriptor("/index/bad/none");
      fail();
    } catch (FileNotFoundException expected) {
      // the NameNode's own exception class reaches the caller
    }
    // Still serving.
    Path q = new Path("/index/bad/b");
    cluster.writeCached(manager, q, FILE, 5);
    assertTrue(manager.getDescriptor(q.toString()).hasParity());
  }

  @Test
  public void parityReportedMissingIsCheckedThenDropped() throws Exception {
    // A report alone drops nothing: the Manager reads the (protected) parity back.
    Path kept = new Path("/index/missing/kept");
    ParityDescriptor k = cluster.writeCached(manager, kept, FILE, 7);
    long checks = cluster.manager().cache().metrics().parityChecks();
    manager.reportRead(new ReadReport(k.getFileId(), k.getGeneration(), ReadReport.Outcome.PARITY_MISSING));
    GenericTestUtils.waitFor(() -> cluster.manager().cache().metrics().parityChecks() > checks, 50, 10_000);
    assertEquals(k.getGeneration(), manager.getDescriptor(kept.toString()).getParity().getGeneration());

    // A value really gone: the report drops the file's parity.
    Path p = new Path("/index/missing/a");
    ParityDescriptor d = cluster.writeCached(manager, p, FILE, 6);
    try (org.pocache.testkit.redis.RespClient r = cluster.redis.client()) {
      r.call("DEL", "pocache:{" + d.getFileId() + "}:" + d.getGeneration() + ":0:1:0");
    }
    manager.reportRead(new ReadReport(d.getFileId(), d.getGeneration(), ReadReport.Outcome.PARITY_MISSING));
    GenericTestUtils.waitFor(() -> {
      try {
        return !manager.getDescriptor(p.toString()).hasParity();
      } catch (IOException e) {
        return false;
      }
    }, 50, 10_000);
    GenericTestUtils.waitFor(() -> !exists(d), 50, 10_000);
  }

  @Test
  public void adminListsEvictsPrefetchesAndReports() throws Exception {
    Path p = new Path("/index/admin/a");
    ParityDescriptor d = cluster.writeCached(manager, p, FILE, 7);
    String ls = admin("-ls", "/index/admin");
    assertTrue(ls, ls.contains("Found 1 files") && ls.contains("CACHED") && ls.contains(p.toString()));
    String report = admin("-report");
    assertTrue(report, report.contains("Redis:            healthy")
        && report.contains("/" + PoCacheConfigKeys.CSAC_EVICTION_DEFAULT + "/"));

    String evicted = admin("-evict", p.toString());
    assertTrue(evicted, evicted.contains("evicted (CACHED, " + ManagerCluster.BLOCK + " parity bytes)"));
    GenericTestUtils.waitFor(() -> !exists(d), 50, 10_000);
    assertTrue(admin("-ls", "/index/admin").contains("Found 0 files"));

    // -prefetch fills it again through the fill worker.
    String pf = admin("-prefetch", p.toString());
    assertTrue(pf, pf.contains("fill started"));
    GenericTestUtils.waitFor(() -> descriptor(p) != null, 50, 20_000);
    ParityDescriptor again = descriptor(p);
    assertTrue(again.getGeneration() > d.getGeneration());
    assertTrue(cluster.parityExists(again));
    assertEquals(2, exitOf("-evict"));
  }

  @Test
  public void openOfAnUncachedFileFillsIt() throws Exception {
    Path p = new Path("/index/fill/a");
    cluster.writePlain(p, FILE, 8);
    DescriptorLookup first = manager.getDescriptor(p.toString());
    assertFalse(first.hasParity());
    assertEquals("FILLING", first.getDecision()); // cache-upon-access admits; the fill worker fills
    GenericTestUtils.waitFor(() -> descriptor(p) != null, 50, 20_000);
    assertTrue(cluster.parityExists(descriptor(p)));
  }

  @Test
  public void metricsAreInTheNameNodesJmx() throws Exception {
    Path p = new Path("/index/jmx/a");
    cluster.writeCached(manager, p, FILE, 9);
    manager.getDescriptor(p.toString());
    String http = cluster.hdfs.cluster().getNameNode().getHttpAddress().getHostString() + ":"
        + cluster.hdfs.cluster().getNameNode().getHttpAddress().getPort();
    String url = "http://" + http + "/jmx?qry=Hadoop:service=NameNode,name=PoCacheManager";
    String json = fetch(url);
    for (String name : new String[] {"CapacityBytes", "UsedBytes", "FilesCached", "Hits", "Misses", "StragglerHits",
        "Admissions", "Evictions", "Prefetches", "FailedFills", "StragglerCount", "tag.Stragglers",
        "GetDescriptorNumOps", "GetDescriptorAvgTime", "RedisHealthy"}) {
      assertTrue(name + " missing in " + json, json.contains("\"" + name + "\""));
    }
    // JMX values are cached by the metrics system for up to 10 s: wait for a fresh view.
    assertTrue(manager.getReport().getHits() >= 1);
    GenericTestUtils.waitFor(() -> fetch(url).matches("(?s).*\"Hits\" : [1-9].*\"FilesCached\" : [1-9].*")
        || fetch(url).matches("(?s).*\"FilesCached\" : [1-9].*\"Hits\" : [1-9].*"), 500, 20_000);
  }

  private static String fetch(String url) {
    try (InputStream in = new URL(url).openStream()) {
      return new String(readAll(in), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return e.toString();
    }
  }

  // --- helpers ------------------------------------------------------------------------

  private interface Call {
    void run() throws Exception;
  }

  private static void expectError(Call c, String text) throws Exception {
    try {
      c.run();
      fail("accepted; expected an error containing: " + text);
    } catch (IOException | IllegalArgumentException e) {
      assertTrue("'" + e.getMessage() + "' lacks '" + text + "'", String.valueOf(e.getMessage()).contains(text));
    }
  }

  private static boolean exists(ParityDescriptor d) {
    try {
      return cluster.parityExists(d);
    } catch (Exception e) {
      return true;
    }
  }

  private static int reservations() {
    try {
      return manager.getReport().getReservations();
    } catch (IOException e) {
      return -1;
    }
  }

  private static ParityDescriptor descriptor(Path p) {
    try {
      DescriptorLookup r = manager.getDescriptor(p.toString());
      return r.hasParity() ? r.getParity() : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String admin(String... args) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int rc = ToolRunner.run(new PoCacheAdmin(cluster.hdfs.conf(), new PrintStream(b, true, "UTF-8")), args);
    String out = b.toString("UTF-8");
    assertEquals(out, 0, rc);
    return out;
  }

  private static int exitOf(String... args) throws Exception {
    return ToolRunner.run(new PoCacheAdmin(cluster.hdfs.conf(), new PrintStream(new ByteArrayOutputStream(), true,
        "UTF-8")), args);
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) > 0; ) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }
}
