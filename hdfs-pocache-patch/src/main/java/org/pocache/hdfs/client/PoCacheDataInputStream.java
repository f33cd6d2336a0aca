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
import java.io.InputStream;
import java.util.List;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.ReadStatistics;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * What {@code open} returns for a file POCache reads itself: an
 * {@link HdfsDataInputStream}, as stock HDFS returns, so that callers that cast to it
 * (HBase, Hadoop's own tools, anything reading {@link #getReadStatistics()}) keep
 * working. Every stream call goes to POCache's stream ({@code in}); the HDFS-specific
 * calls go to the HDFS stream underneath it, which POCache's stream reads through.
 */
final class PoCacheDataInputStream extends HdfsDataInputStream {
  private final DFSInputStream hdfs;

  /**
   * @param hdfs the file's HDFS stream, which {@code ours} reads through
   * @param ours POCache's stream over it (Seekable and PositionedReadable)
   */
  PoCacheDataInputStream(DFSInputStream hdfs, InputStream ours) {
    super(hdfs);
    this.hdfs = hdfs;
    this.in = ours;
  }

  @Override
  public InputStream getWrappedStream() {
    return in;
  }

  @Override
  public DatanodeInfo getCurrentDatanode() {
    return hdfs.getCurrentDatanode();
  }

  @Override
  public ExtendedBlock getCurrentBlock() {
    return hdfs.getCurrentBlock();
  }

  @Override
  public List<LocatedBlock> getAllBlocks() throws IOException {
    return hdfs.getAllBlocks();
  }

  @Override
  public long getVisibleLength() {
    return hdfs.getFileLength();
  }

  /**
   * The HDFS stream's statistics, with those of the stream POCache's sequential reads go
   * through on the caller's thread (see {@link FailFastClient}) added in, and the bytes
   * the caller took from POCache's read-ahead, fetches ahead and rebuilds as remote bytes:
   * HDFS's stream would have read them all itself.
   */
  @Override
  public ReadStatistics getReadStatistics() {
    DFSInputStream other = directStream();
    long elsewhere = ours() == null ? 0 : ours().bytesReadElsewhere();
    if (other == null && elsewhere == 0) {
      return hdfs.getReadStatistics();
    }
    ReadStatistics sum = new ReadStatistics(hdfs.getReadStatistics());
    if (other != null) {
      ReadStatistics d = other.getReadStatistics();
      sum.addZeroCopyBytes(d.getTotalZeroCopyBytesRead());
      sum.addShortCircuitBytes(d.getTotalShortCircuitBytesRead() - d.getTotalZeroCopyBytesRead());
      sum.addLocalBytes(d.getTotalLocalBytesRead() - d.getTotalShortCircuitBytesRead());
      sum.addRemoteBytes(d.getTotalBytesRead() - d.getTotalLocalBytesRead());
    }
    sum.addRemoteBytes(elsewhere);
    return sum;
  }

  @Override
  public void clearReadStatistics() {
    hdfs.clearReadStatistics();
    DFSInputStream other = directStream();
    if (other != null) {
      other.clearReadStatistics();
    }
    if (ours() != null) {
      ours().clearBytesReadElsewhere();
    }
  }

  private PoCacheInputStream ours() {
    return in instanceof PoCacheInputStream ? (PoCacheInputStream) in : null;
  }

  /** POCache's direct stream when it is not {@code hdfs}, else null. */
  private DFSInputStream directStream() {
    return in instanceof PoCacheInputStream ? ((PoCacheInputStream) in).separateDirectStream() : null;
  }
}
