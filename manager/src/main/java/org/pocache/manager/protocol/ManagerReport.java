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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** The Manager's state and counters as {@code pocache admin -report} prints them. */
public final class ManagerReport {
  private final long capacityBytes;
  private final long usedBytes;
  private final int filesCached;
  private final int reservations;
  private final long hits;
  private final long misses;
  private final long stragglerHits;
  private final long admissions;
  private final long evictions;
  private final long prefetches;
  private final long failedFills;
  private final List<String> stragglers;
  private final String detector;
  private final String policies;
  private final boolean redisHealthy;
  private final long redisRestarts;
  private final long clientObservations;
  private final long heartbeats;

  private ManagerReport(Builder b) {
    capacityBytes = b.capacityBytes;
    usedBytes = b.usedBytes;
    filesCached = b.filesCached;
    reservations = b.reservations;
    hits = b.hits;
    misses = b.misses;
    stragglerHits = b.stragglerHits;
    admissions = b.admissions;
    evictions = b.evictions;
    prefetches = b.prefetches;
    failedFills = b.failedFills;
    stragglers = Collections.unmodifiableList(b.stragglers);
    detector = b.detector;
    policies = b.policies;
    redisHealthy = b.redisHealthy;
    redisRestarts = b.redisRestarts;
    clientObservations = b.clientObservations;
    heartbeats = b.heartbeats;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  public long getCapacityBytes() {
    return capacityBytes;
  }

  public long getUsedBytes() {
    return usedBytes;
  }

  public int getFilesCached() {
    return filesCached;
  }

  /** Open reservations (writes and fills under way). */
  public int getReservations() {
    return reservations;
  }

  public long getHits() {
    return hits;
  }

  public long getMisses() {
    return misses;
  }

  /** Reads in which parity replaced a late or straggling piece. */
  public long getStragglerHits() {
    return stragglerHits;
  }

  public long getAdmissions() {
    return admissions;
  }

  public long getEvictions() {
    return evictions;
  }

  public long getPrefetches() {
    return prefetches;
  }

  public long getFailedFills() {
    return failedFills;
  }

  /** The DataNodes listed as stragglers now. */
  public List<String> getStragglers() {
    return stragglers;
  }

  public String getDetector() {
    return detector;
  }

  /** admission/eviction/prediction. */
  public String getPolicies() {
    return policies;
  }

  public boolean isRedisHealthy() {
    return redisHealthy;
  }

  public long getRedisRestarts() {
    return redisRestarts;
  }

  /** Per-DataNode read times clients reported. */
  public long getClientObservations() {
    return clientObservations;
  }

  /** DataNode heartbeats taken. */
  public long getHeartbeats() {
    return heartbeats;
  }

  /** Builds a {@link ManagerReport}; every count starts at 0. */
  public static final class Builder {
    private long capacityBytes;
    private long usedBytes;
    private int filesCached;
    private int reservations;
    private long hits;
    private long misses;
    private long stragglerHits;
    private long admissions;
    private long evictions;
    private long prefetches;
    private long failedFills;
    private List<String> stragglers = Collections.emptyList();
    private String detector = "";
    private String policies = "";
    private boolean redisHealthy;
    private long redisRestarts;
    private long clientObservations;
    private long heartbeats;

    private Builder() {
    }

    public Builder setCapacityBytes(long v) {
      capacityBytes = v;
      return this;
    }

    public Builder setUsedBytes(long v) {
      usedBytes = v;
      return this;
    }

    public Builder setFilesCached(int v) {
      filesCached = v;
      return this;
    }

    public Builder setReservations(int v) {
      reservations = v;
      return this;
    }

    public Builder setHits(long v) {
      hits = v;
      return this;
    }

    public Builder setMisses(long v) {
      misses = v;
      return this;
    }

    public Builder setStragglerHits(long v) {
      stragglerHits = v;
      return this;
    }

    public Builder setAdmissions(long v) {
      admissions = v;
      return this;
    }

    public Builder setEvictions(long v) {
      evictions = v;
      return this;
    }

    public Builder setPrefetches(long v) {
      prefetches = v;
      return this;
    }

    public Builder setFailedFills(long v) {
      failedFills = v;
      return this;
    }

    public Builder setStragglers(List<String> v) {
      stragglers = new ArrayList<>(v);
      return this;
    }

    public Builder setDetector(String v) {
      detector = Objects.requireNonNull(v, "detector");
      return this;
    }

    public Builder setPolicies(String v) {
      policies = Objects.requireNonNull(v, "policies");
      return this;
    }

    public Builder setRedisHealthy(boolean v) {
      redisHealthy = v;
      return this;
    }

    public Builder setRedisRestarts(long v) {
      redisRestarts = v;
      return this;
    }

    public Builder setClientObservations(long v) {
      clientObservations = v;
      return this;
    }

    public Builder setHeartbeats(long v) {
      heartbeats = v;
      return this;
    }

    public ManagerReport build() {
      return new ManagerReport(this);
    }
  }
}
