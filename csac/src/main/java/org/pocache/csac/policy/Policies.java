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
package org.pocache.csac.policy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Policies by configuration name. Unknown names fail with the key and the names
 * that exist.
 */
public final class Policies {
  public static final List<String> ADMISSION = Arrays.asList("cache-upon-access", "tinylfu", "size-aware");
  public static final List<String> EVICTION = Arrays.asList("lru", "lfu", "arc", "s3fifo", "benefit");
  public static final List<String> PREDICTION = Arrays.asList("recency", "frequency", "recency-frequency");

  private Policies() {
  }

  /**
   * @param key the configuration key the name came from, for the error message
   * @param capacity the cache capacity (weight units), which sizes some policies
   */
  public static AdmissionPolicy admission(String key, String name, long capacity, int expectedFiles) {
    switch (normalize(name)) {
      case "cache-upon-access":
        return new CacheUponAccess();
      case "tinylfu":
        return new TinyLfuAdmission(expectedFiles);
      case "size-aware":
        return new SizeAwareAdmission(Math.max(1.0, capacity / 10.0), 1);
      default:
        throw unknown(key, name, ADMISSION);
    }
  }

  public static EvictionPolicy eviction(String key, String name, long capacity) {
    switch (normalize(name)) {
      case "lru":
        return new Lru();
      case "lfu":
        return new Lfu();
      case "arc":
        return new Arc(capacity);
      case "s3fifo":
      case "s3-fifo":
        return new S3Fifo(capacity);
      case "benefit":
        return new BenefitPerByte();
      default:
        throw unknown(key, name, EVICTION);
    }
  }

  public static PredictionPolicy prediction(String key, String name, int historySize) {
    switch (normalize(name)) {
      case "recency":
        return new RecencyPrediction(historySize);
      case "frequency":
        return new FrequencyPrediction(historySize);
      case "recency-frequency":
      case "both":
        return new RecencyFrequencyPrediction(historySize);
      default:
        throw unknown(key, name, PREDICTION);
    }
  }

  private static String normalize(String name) {
    return name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
  }

  private static IllegalArgumentException unknown(String key, String name, List<String> known) {
    return new IllegalArgumentException(key + ": unknown policy '" + name + "'; known: " + String.join(", ", known));
  }
}
