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
package org.pocache.hdfs.namenode;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.ipc.RemoteException;
import org.pocache.hdfs.client.BlockListDigest;
import org.pocache.hdfs.compat.HadoopCompat;
import org.pocache.manager.server.FileInfo;
import org.pocache.manager.server.Namespace;

/**
 * The Manager's view of HDFS over the NameNode's client protocol. A lookup calls
 * the NameNode's getBlockLocations (the READ permission check, the blocks and their
 * DataNodes, whether the file is open for write) and, unless the file was resolved
 * with the same blocks in the last {@link #RESOLVED_TTL_NANOS} nanoseconds,
 * getFileInfo (inode id, modification time, block size, EC policy). A file by id is looked up through
 * the NameNode's reserved path {@code /.reserved/.inodes/<id>}.
 *
 * <p>Who the NameNode sees as the caller is up to the {@link Caller}: inside the
 * NameNode it is the NameNode's own RPC server called on the Manager's handler
 * thread, where Hadoop's IPC layer makes the Manager RPC's caller the current user;
 * standalone it is a proxy-user client per caller.
 */
public final class ClientProtocolNamespace implements Namespace {
  /** The NameNode, as whoever should be checked for the current thread. */
  public interface Caller {
    ClientProtocol namenode() throws IOException;
  }

  /** The current full path of an inode, or null if it cannot be told (a standalone Manager). */
  public interface PathOfId {
    String path(long fileId);
  }
  private final Caller caller;
  private final java.util.function.BooleanSupplier running;
  private final PathOfId pathOfId;
  /**
   * Complete files as last resolved, by the path asked for: a lookup then costs the
   * NameNode one call (getBlockLocations, which checks the caller's READ permission and
   * lists the blocks the entry is checked against) instead of two.
   */
  private final java.util.concurrent.ConcurrentHashMap<String, Resolved> resolved =
      new java.util.concurrent.ConcurrentHashMap<>();
  static final int MAX_RESOLVED = 65_536;
  static final long RESOLVED_TTL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

  public ClientProtocolNamespace(Caller caller) {
    this(caller, () -> true);
  }

  /** @param running false once the NameNode behind {@code caller} is shutting down */
  public ClientProtocolNamespace(Caller caller, java.util.function.BooleanSupplier running) {
    this(caller, running, id -> null);
  }

  /**
   * @param pathOfId tells a file's path from its inode id (the NameNode's own namespace, in
   *     process); byId asks it only after the caller was allowed to see the file
   */
  public ClientProtocolNamespace(Caller caller, java.util.function.BooleanSupplier running, PathOfId pathOfId) {
    this.caller = caller;
    this.running = running;
    this.pathOfId = pathOfId;
  }

  @Override
  public boolean exists(String path) throws IOException {
    try {
      return caller.namenode().getFileInfo(path) != null;
    } catch (RemoteException e) {
      throw e.unwrapRemoteException();
    }
  }

  @Override
  public Set<String> dataNodes() throws IOException {
    try {
      Set<String> out = new java.util.HashSet<>();
      for (DatanodeInfo d : caller.namenode().getDatanodeReport(
          org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.ALL)) {
        out.add(d.getXferAddr());
      }
      return out;
    } catch (RemoteException e) {
      throw e.unwrapRemoteException();
    }
  }

  @Override
  public boolean canWrite(String path) throws IOException {
    try {
      caller.namenode().checkAccess(path, org.apache.hadoop.fs.permission.FsAction.WRITE);
      return true;
    } catch (RemoteException e) {
      IOException real = e.unwrapRemoteException();
      if (real instanceof org.apache.hadoop.security.AccessControlException) {
        return false;
      }
      throw real;
    } catch (org.apache.hadoop.security.AccessControlException e) {
      return false;
    }
  }

  @Override
  public boolean available() {
    return running.getAsBoolean();
  }

  @Override
  public FileInfo open(String path) throws IOException {
    FileInfo f = lookup(path, path);
    if (f == null) {
      throw new FileNotFoundException("File does not exist: " + path);
    }
    return f;
  }

  @Override
  public boolean unchanged(String path, FileInfo seen) throws IOException {
    try {
      HdfsFileStatus st = caller.namenode().getFileInfo(path);
      return st != null && !st.isDirectory() && st.getFileId() == seen.id && st.getLen() == seen.length
          && st.getModificationTime() == seen.modificationTime;
    } catch (FileNotFoundException e) {
      return false;
    } catch (RemoteException e) {
      IOException real = e.unwrapRemoteException();
      if (real instanceof FileNotFoundException) {
        return false;
      }
      throw real;
    }
  }

  @Override
  public FileInfo byId(long fileId) throws IOException {
    if (fileId <= 0) {
      throw new IllegalArgumentException("file id must be > 0, got " + fileId);
    }
    FileInfo f = lookup("/.reserved/.inodes/" + fileId, null);
    if (f == null) {
      return null;
    }
    String path = pathOf(fileId); // asked once the caller was allowed to see the file
    return path == null ? f : f.withPath(path);
  }

  @Override
  public String pathOf(long fileId) {
    try {
      return pathOfId.path(fileId);
    } catch (RuntimeException | LinkageError e) {
      return null; // a NameNode whose internals differ: the path stays unknown, as standalone
    }
  }

  private FileInfo lookup(String src, String path) throws IOException {
    try {
      return lookupOnce(src, path);
    } catch (RemoteException e) {
      // Standalone, the NameNode's answer arrives wrapped; give callers its own class.
      IOException real = e.unwrapRemoteException();
      if (real instanceof FileNotFoundException && path == null) {
        return null;
      }
      throw real;
    }
  }

  private FileInfo lookupOnce(String src, String path) throws IOException {
    ClientProtocol nn = caller.namenode();
    LocatedBlocks blocks;
    try {
      blocks = nn.getBlockLocations(src, 0, Long.MAX_VALUE); // the caller's READ permission is checked here
    } catch (FileNotFoundException e) {
      if (path == null) {
        return null; // by id: gone
      }
      HdfsFileStatus st = nn.getFileInfo(src);
      if (st != null && st.isDirectory()) {
        throw new FileNotFoundException(path + " is a directory");
      }
      throw e;
    }
    if (blocks == null) {
      return null;
    }
    List<LocatedBlock> list = blocks.getLocatedBlocks();
    Set<String> dataNodes = new LinkedHashSet<>();
    for (LocatedBlock b : list) {
      for (DatanodeInfo d : HadoopCompat.locations(b)) {
        dataNodes.add(d.getXferAddr());
      }
    }
    long digest = BlockListDigest.of(list);
    boolean complete = !blocks.isUnderConstruction();
    long now = System.nanoTime();
    Resolved r = complete ? resolved.get(src) : null;
    if (r != null && r.matches(digest, blocks.getFileLength(), now)) {
      return r.info(path, new ArrayList<>(dataNodes));
    }
    HdfsFileStatus st;
    try {
      st = nn.getFileInfo(src);
    } catch (FileNotFoundException e) {
      if (path == null) {
        return null;
      }
      throw e;
    }
    if (st == null) {
      return null;
    }
    if (st.isDirectory()) {
      throw new FileNotFoundException((path != null ? path : src) + " is a directory");
    }
    ErasureCodingPolicy ec = st.getErasureCodingPolicy();
    FileInfo f = new FileInfo(st.getFileId(), path, st.getLen(), st.getModificationTime(), st.getBlockSize(),
        ec == null ? 0 : ec.getNumDataUnits(), ec == null ? 0 : ec.getCellSize(), complete,
        new ArrayList<>(dataNodes), digest, st.getFileEncryptionInfo() != null);
    if (complete && !list.isEmpty() && st.getLen() == blocks.getFileLength()) {
      // Both answers describe the same file (a replacement in between would differ in length or blocks).
      remember(src, new Resolved(f, now));
    }
    return f;
  }

  private void remember(String src, Resolved r) {
    if (resolved.size() >= MAX_RESOLVED) {
      // Rarely reached (more hot files than this within RESOLVED_TTL): drop an arbitrary tenth.
      java.util.Iterator<String> it = resolved.keySet().iterator();
      for (int n = MAX_RESOLVED / 10; n > 0 && it.hasNext(); n--) {
        it.next();
        it.remove();
      }
    }
    resolved.put(src, r);
  }

  /**
   * What {@code getFileInfo} said of a complete file, with the blocks it had then. A
   * later lookup whose blocks (ids, generation stamps, lengths) and length are the
   * same is the same file with the same bytes: block ids are never reused, and an
   * overwrite, append, truncate or concat changes the list. Only its modification
   * time could have moved without its blocks (setTimes), which is why an entry lives
   * {@link #RESOLVED_TTL_NANOS} at most.
   */
  private static final class Resolved {
    final FileInfo info;
    final long at;

    Resolved(FileInfo info, long at) {
      this.info = info;
      this.at = at;
    }

    boolean matches(long digest, long length, long now) {
      return info.blocksDigest == digest && info.length == length && now - at < RESOLVED_TTL_NANOS;
    }

    FileInfo info(String path, List<String> dataNodes) {
      FileInfo i = info;
      return new FileInfo(i.id, path, i.length, i.modificationTime, i.blockSize, i.ecDataUnits, i.ecCellSize, true,
          dataNodes, i.blocksDigest, i.encrypted);
    }
  }
}
