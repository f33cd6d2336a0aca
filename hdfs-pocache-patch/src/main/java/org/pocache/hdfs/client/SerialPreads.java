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
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DFSStripedInputStream;

/**
 * Positional reads of an erasure-coded file's HDFS stream, one at a time.
 *
 * <p>HDFS's striped stream decodes with one raw decoder per stream, shared by its
 * positional and stateful reads, and Hadoop's Java Reed-Solomon decoder is not safe for
 * concurrent use: it keeps the tables of the last erasure pattern in fields, and a read
 * that finds the pattern already recorded uses tables another read is still building.
 * Two reads of one stream that both decode (a DataNode down, an internal block that
 * failed) can then return wrong bytes. POCache reads an erasure-coded file's pieces on
 * its pool, so whatever it reads through the striped stream takes the stream's own
 * monitor, which HDFS's stateful reads ({@code read}, {@code seek}) hold as well. Reads
 * of a replicated file's stream need no such care and are passed straight on.
 */
final class SerialPreads implements PositionedReadable {
  private final DFSInputStream in;

  private SerialPreads(DFSInputStream in) {
    this.in = in;
  }

  /** Positional reads of {@code in}: serialized on its monitor if it is a striped stream, else {@code in} itself. */
  static PositionedReadable of(DFSInputStream in) {
    return in instanceof DFSStripedInputStream ? new SerialPreads(in) : in;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    synchronized (in) {
      return in.read(position, buffer, offset, length);
    }
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    synchronized (in) {
      in.readFully(position, buffer, offset, length);
    }
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }
}
