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

import java.util.List;

/** What the Manager needs to know of one HDFS file, as the NameNode reports it now. */
public final class FileInfo {
  /** The inode id: stable across renames, new for a file deleted and created again. */
  public final long id;
  public final String path;
  public final long length;
  public final long modificationTime;
  /** HDFS block size; for an erasure-coded file, its internal block size. */
  public final long blockSize;
  /** For an erasure-coded file its policy's data units and cell size; 0 for a replicated file. */
  public final int ecDataUnits;
  public final int ecCellSize;
  /** False while the file is open for write (being written, appended or recovered). */
  public final boolean complete;
  /** Transfer addresses (host:port) of every DataNode holding any of its blocks. */
  public final List<String> dataNodes;
  /**
   * A digest of the file's blocks (ids, generation stamps, lengths) as the NameNode
   * lists them now; parity is bound to it (readers compare it with their stream's blocks).
   * 0 if not known.
   */
  public final long blocksDigest;
  /** In an HDFS encryption zone: never cached (its parity would be made from the plaintext). */
  public final boolean encrypted;

  public FileInfo(long id, String path, long length, long modificationTime, long blockSize, int ecDataUnits,
      int ecCellSize, boolean complete, List<String> dataNodes, long blocksDigest) {
    this(id, path, length, modificationTime, blockSize, ecDataUnits, ecCellSize, complete, dataNodes, blocksDigest,
        false);
  }

  public FileInfo(long id, String path, long length, long modificationTime, long blockSize, int ecDataUnits,
      int ecCellSize, boolean complete, List<String> dataNodes, long blocksDigest, boolean encrypted) {
    this.encrypted = encrypted;
    this.id = id;
    this.path = path;
    this.length = length;
    this.modificationTime = modificationTime;
    this.blockSize = blockSize;
    this.ecDataUnits = ecDataUnits;
    this.ecCellSize = ecCellSize;
    this.complete = complete;
    this.dataNodes = dataNodes;
    this.blocksDigest = blocksDigest;
  }

  /** The same file under {@code newPath} (its path as the NameNode knows it now). */
  public FileInfo withPath(String newPath) {
    return new FileInfo(id, newPath, length, modificationTime, blockSize, ecDataUnits, ecCellSize, complete,
        dataNodes, blocksDigest, encrypted);
  }

  public boolean striped() {
    return ecDataUnits > 0;
  }

  @Override
  public String toString() {
    return path + " (id " + id + ", " + length + " bytes" + (complete ? "" : ", open for write") + ")";
  }
}
