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
 * The Manager's view of HDFS over the NameNode's client protocol. Two NameNode
 * calls per lookup: getBlockLocations (the READ permission check, the blocks and
 * their DataNodes, whether the file is open for write) and getFileInfo (inode id,
 * modification time, block size, EC policy). A file by id is looked up through
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
    HdfsFileStatus st;
    LocatedBlocks blocks;
    try {
      st = nn.getFileInfo(src);
      if (st == null) {
        return null;
      }
      if (st.isDirectory()) {
        throw new FileNotFoundException((path != null ? path : src) + " is a directory");
      }
      blocks = nn.getBlockLocations(src, 0, Long.MAX_VALUE);
    } catch (FileNotFoundException e) {
      if (path == null) {
        return null; // by id: gone
      }
      throw e;
    }
    if (blocks == null) {
      return null;
    }
    Set<String> dataNodes = new LinkedHashSet<>();
    for (LocatedBlock b : blocks.getLocatedBlocks()) {
      for (DatanodeInfo d : HadoopCompat.locations(b)) {
        dataNodes.add(d.getXferAddr());
      }
    }
    ErasureCodingPolicy ec = st.getErasureCodingPolicy();
    return new FileInfo(st.getFileId(), path, st.getLen(), st.getModificationTime(), st.getBlockSize(),
        ec == null ? 0 : ec.getNumDataUnits(), ec == null ? 0 : ec.getCellSize(), !blocks.isUnderConstruction(),
        new ArrayList<>(dataNodes), BlockListDigest.of(blocks.getLocatedBlocks()),
        st.getFileEncryptionInfo() != null);
  }
}
