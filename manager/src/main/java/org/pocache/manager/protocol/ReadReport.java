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

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a reader tells the Manager when a read ends: how the parity fared and how long
 * each DataNode took for the bytes it served (the Manager's straggler detector weighs
 * those next to the DataNodes' own heartbeats).
 */
public final class ReadReport {
  /** How a read used the cache. */
  public enum Outcome {
    /** No parity used. */
    VANILLA,
    /** Parity read, no piece was late. */
    PARITY_HIT,
    /** Parity replaced a late or straggling data piece. */
    STRAGGLER_MASKED,
    /** The descriptor said cached; Redis did not have the parity. */
    PARITY_MISSING,
    /** A value failed its checks. */
    PARITY_CORRUPT,
    /** Redis failed or timed out. */
    CACHE_ERROR,
    /** No read ended: what reads still under way saw of their DataNodes (file id 0). */
    OBSERVATIONS_ONLY
  }

  /** Bytes one DataNode served to the reader and the time they took. */
  public static final class Observation {
    private final String dataNode;
    private final long bytes;
    private final double millis;

    /** @param dataNode the DataNode's transfer address, host:port, as in block locations */
    public Observation(String dataNode, long bytes, double millis) {
      this.dataNode = Objects.requireNonNull(dataNode, "dataNode");
      this.bytes = bytes;
      this.millis = millis;
    }

    public String getDataNode() {
      return dataNode;
    }

    public long getBytes() {
      return bytes;
    }

    public double getMillis() {
      return millis;
    }

    @Override
    public String toString() {
      return dataNode + ": " + bytes + " B in " + millis + " ms";
    }
  }

  private final long fileId;
  private final long generation;
  private final Outcome outcome;
  private final List<Observation> observations;

  /**
   * @param generation the parity generation read, 0 when read without parity
   */
  public ReadReport(long fileId, long generation, Outcome outcome, List<Observation> observations) {
    this.fileId = fileId;
    this.generation = generation;
    this.outcome = Objects.requireNonNull(outcome, "outcome");
    this.observations = Collections.unmodifiableList(Objects.requireNonNull(observations, "observations"));
  }

  /** A report of a read that ended, without observations. */
  public ReadReport(long fileId, long generation, Outcome outcome) {
    this(fileId, generation, outcome, Collections.<Observation>emptyList());
  }

  /** What reads under way have seen of their DataNodes so far. */
  public static ReadReport observationsOnly(List<Observation> observations) {
    return new ReadReport(0, 0, Outcome.OBSERVATIONS_ONLY, observations);
  }

  public long getFileId() {
    return fileId;
  }

  public long getGeneration() {
    return generation;
  }

  public Outcome getOutcome() {
    return outcome;
  }

  public List<Observation> getObservations() {
    return observations;
  }

  @Override
  public String toString() {
    return "read of file id " + fileId + " (generation " + generation + "): " + outcome + " " + observations;
  }
}
