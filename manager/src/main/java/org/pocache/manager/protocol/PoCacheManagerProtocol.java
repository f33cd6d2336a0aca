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
package org.pocache.manager.protocol;

import java.io.IOException;
import java.util.List;

/**
 * What the Manager answers. Callers reach it through {@link ManagerClient}
 * (Hadoop IPC + protobuf); {@link org.pocache.manager.server.CacheService}
 * implements it. Descriptors, reservations and reports are immutable domain values
 * ({@link ParityDescriptor}, {@link Reservation}, ...); only the translators
 * ({@link ServerSideTranslator}, {@link ManagerClient}, {@link ProtoTranslation})
 * see their protobuf messages. Every bad argument is refused with an
 * exception whose message names it.
 */
public interface PoCacheManagerProtocol extends PoCacheDataNodeProtocol {
  // DataNodes

  /**
   * One interval of a DataNode's reads, from its POCache plugin (over
   * {@link PoCacheDataNodeProtocol}, which has an ACL of its own).
   *
   * @param dataNode the DataNode's transfer address, host:port, as in block locations
   */
  @Override
  void heartbeat(String dataNode, long bytesRead, double serviceMillis, long readOps) throws IOException;

  /** The current straggler list and the detector that produced it. */
  StragglerList getStragglers() throws IOException;

  // Clients

  /**
   * The parity descriptor of the file at {@code path}, if its parity is cached and
   * current; also records the open with CSAC (Query and Update). The caller must
   * be allowed to read the file.
   */
  DescriptorLookup getDescriptor(String path) throws IOException;

  /**
   * As {@link #getDescriptor(String)}; with {@code readerFills}, a file CSAC admits
   * on this read is handed to the caller to fill (the response's {@code fill}
   * reservation: encode while reading the whole file, upload, commit) instead of
   * to the Manager's fill worker. If the caller aborts that reservation, the fill
   * worker takes the file over.
   */
  DescriptorLookup getDescriptor(String path, boolean readerFills) throws IOException;

  /**
   * Asks to cache the parity of a file the caller has just created.
   *
   * @param expectedMaxBytes the most the caller will write, 0 if unknown
   * @return a reservation, or the reason there is none
   */
  WriteAdmission admitWrite(String path, long expectedMaxBytes) throws IOException;

  /**
   * Makes a reservation's parity visible: the file is closed with {@code length} bytes.
   *
   * @param valueDigests the digest of every value stored (see {@link ParityDescriptor#getValueDigests()});
   *     required when the parity is protected, empty otherwise
   */
  void commit(long reservationId, long fileId, long length, long parityBytes, byte[] valueDigests)
      throws IOException;

  /** {@link #commit(long, long, long, long, byte[])} of unprotected parity (no digests). */
  default void commit(long reservationId, long fileId, long length, long parityBytes) throws IOException {
    commit(reservationId, fileId, length, parityBytes, new byte[0]);
  }

  /** Gives a reservation up; its parity keys are deleted. */
  void abort(long reservationId, String reason) throws IOException;

  /** What a finished read observed: per-DataNode bytes and time, and how parity fared. */
  void reportRead(ReadReport report) throws IOException;

  /**
   * A client deleted {@code path} (a file, or a directory and everything under it):
   * the parity of cached files there that the NameNode confirms are gone is dropped
   * now rather than at the next sweep. Files that still exist are left alone, so
   * any client may say it; says what was done.
   */
  String forgetDeleted(String path) throws IOException;

  // Operators

  ManagerReport getReport() throws IOException;

  /** Cached files whose path (as last seen) starts with {@code pathPrefix}, at most {@code limit}. */
  CachedFiles listCached(String pathPrefix, int limit) throws IOException;

  /** Drops a file's parity; says what was done. Needs administrator rights. */
  String evict(String path) throws IOException;

  /** Fills a file's parity now; says what was done. Needs administrator rights. */
  String prefetch(String path) throws IOException;

  /** A straggler list as the Manager reports it. */
  final class StragglerList {
    public final List<String> dataNodes;
    public final String detector;
    /** Which of {@link #dataNodes} DataNode heartbeats flag (slow disk). */
    public final List<String> byHeartbeats;
    /** Which of {@link #dataNodes} clients' read observations flag (slow as clients see it, network included). */
    public final List<String> byClientReads;

    public StragglerList(List<String> dataNodes, String detector) {
      this(dataNodes, detector, dataNodes, java.util.Collections.<String>emptyList());
    }

    public StragglerList(List<String> dataNodes, String detector, List<String> byHeartbeats,
        List<String> byClientReads) {
      this.dataNodes = dataNodes;
      this.detector = detector;
      this.byHeartbeats = byHeartbeats;
      this.byClientReads = byClientReads;
    }
  }
}
