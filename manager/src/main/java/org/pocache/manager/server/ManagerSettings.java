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

import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.pocache.cache.RedisSettings;
import org.pocache.csac.Csac;
import org.pocache.csac.policy.Policies;
import org.pocache.manager.PoCacheConfig;
import org.pocache.manager.PoCacheConfigKeys;
import org.pocache.manager.CacheExclusions;

/** The Manager's settings, read and checked once from the configuration; immutable. */
final class ManagerSettings {
  final RedisSettings redis;
  /** The code of contiguous files (striped files bring their own k). */
  final int k;
  final int m;
  final int subblockBytes;
  /** CSAC's T: the parity bytes the Manager may keep in Redis. */
  final long capacityBytes;
  final long maxFileBytes;
  final long minFileBytes;
  final int readMinBlocks;
  final CacheExclusions exclusions;
  /** How long a user's lookup of a path is answered from the last (dfs.pocache.manager.lookup.cache.ms); 0: never. */
  final long lookupCacheMillis;
  final long reservationTtlMillis;
  final int prefetchCandidates;
  final double prefetchRatio;
  /** How many files CSAC's prediction and the Manager's known-files map remember. */
  final int predictionHistory;
  final int expectedFiles;
  final long exclusiveLimitBytes;
  final boolean keepStragglerFiles;
  final String admission;
  final String eviction;
  final String prediction;
  final double userShare;
  final String admins;
  final String dataNodeUsers;
  final String superGroup;

  /** @throws IllegalArgumentException naming a bad key */
  ManagerSettings(Configuration conf) {
    redis = RedisSettings.from(PoCacheConfig.redisLookup(conf));
    k = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_K_KEY, PoCacheConfigKeys.CODE_K_DEFAULT, 2, 32);
    m = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CODE_M_KEY, PoCacheConfigKeys.CODE_M_DEFAULT, 1, 4);
    subblockBytes = PoCacheConfig.getInt(conf, PoCacheConfigKeys.SUBBLOCK_KEY, PoCacheConfigKeys.SUBBLOCK_DEFAULT,
        4096, 1 << 30);
    capacityBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_CAPACITY_KEY,
        PoCacheConfigKeys.CACHE_CAPACITY_DEFAULT, 1, Long.MAX_VALUE);
    maxFileBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_MAX_FILE_KEY,
        PoCacheConfigKeys.CACHE_MAX_FILE_DEFAULT, 1, Long.MAX_VALUE);
    minFileBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CACHE_MIN_FILE_KEY,
        PoCacheConfigKeys.CACHE_MIN_FILE_DEFAULT, 0, Long.MAX_VALUE);
    readMinBlocks = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CACHE_READ_MIN_BLOCKS_KEY,
        PoCacheConfigKeys.CACHE_READ_MIN_BLOCKS_DEFAULT, 1, 1 << 20);
    exclusions = CacheExclusions.from(conf);
    lookupCacheMillis = PoCacheConfig.getLong(conf, PoCacheConfigKeys.MANAGER_LOOKUP_CACHE_KEY,
        PoCacheConfigKeys.MANAGER_LOOKUP_CACHE_DEFAULT, 0, 3_600_000);
    reservationTtlMillis = PoCacheConfig.getLong(conf, PoCacheConfigKeys.MANAGER_RESERVATION_TTL_KEY,
        PoCacheConfigKeys.MANAGER_RESERVATION_TTL_DEFAULT, 1, Long.MAX_VALUE);
    prefetchCandidates = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_PREFETCH_CANDIDATES_KEY,
        PoCacheConfigKeys.CSAC_PREFETCH_CANDIDATES_DEFAULT, 1, 1_000_000);
    prefetchRatio = PoCacheConfig.getDouble(conf, PoCacheConfigKeys.CSAC_PREFETCH_RATIO_KEY,
        PoCacheConfigKeys.CSAC_PREFETCH_RATIO_DEFAULT, 0, 1);
    predictionHistory = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_PREDICTION_HISTORY_KEY,
        PoCacheConfigKeys.CSAC_PREDICTION_HISTORY_DEFAULT, 1, 100_000_000);
    expectedFiles = PoCacheConfig.getInt(conf, PoCacheConfigKeys.CSAC_EXPECTED_FILES_KEY,
        PoCacheConfigKeys.CSAC_EXPECTED_FILES_DEFAULT, 1, 1_000_000_000);
    exclusiveLimitBytes = PoCacheConfig.getLong(conf, PoCacheConfigKeys.CSAC_EXCLUSIVE_LIMIT_KEY,
        PoCacheConfigKeys.CSAC_EXCLUSIVE_LIMIT_DEFAULT, 0, Long.MAX_VALUE);
    keepStragglerFiles = PoCacheConfig.getBoolean(conf, PoCacheConfigKeys.CSAC_STRAGGLER_KEEP_KEY,
        PoCacheConfigKeys.CSAC_STRAGGLER_KEEP_DEFAULT);
    admission = conf.getTrimmed(PoCacheConfigKeys.CSAC_ADMISSION_KEY, PoCacheConfigKeys.CSAC_ADMISSION_DEFAULT);
    eviction = conf.getTrimmed(PoCacheConfigKeys.CSAC_EVICTION_KEY, PoCacheConfigKeys.CSAC_EVICTION_DEFAULT);
    prediction = conf.getTrimmed(PoCacheConfigKeys.CSAC_PREDICTION_KEY, PoCacheConfigKeys.CSAC_PREDICTION_DEFAULT);
    userShare = PoCacheConfig.getDouble(conf, PoCacheConfigKeys.MANAGER_USER_SHARE_KEY,
        PoCacheConfigKeys.MANAGER_USER_SHARE_DEFAULT, 0.0, 1.0);
    admins = conf.get(PoCacheConfigKeys.MANAGER_ADMINS_KEY, PoCacheConfigKeys.MANAGER_ADMINS_DEFAULT);
    dataNodeUsers = conf.get(PoCacheConfigKeys.MANAGER_DATANODE_USERS_KEY,
        PoCacheConfigKeys.MANAGER_DATANODE_USERS_DEFAULT);
    superGroup = conf.getTrimmed("dfs.permissions.superusergroup", "supergroup");
  }

  /** A CSAC instance with the configured policies (unknown names fail naming their key). */
  Csac newCsac(LongSupplier clock) {
    return new Csac(capacityBytes,
        Policies.admission(PoCacheConfigKeys.CSAC_ADMISSION_KEY, admission, capacityBytes, expectedFiles),
        Policies.eviction(PoCacheConfigKeys.CSAC_EVICTION_KEY, eviction, capacityBytes),
        Policies.prediction(PoCacheConfigKeys.CSAC_PREDICTION_KEY, prediction, predictionHistory), prefetchRatio,
        exclusiveLimitBytes,
        keepStragglerFiles ? Policies.eviction(PoCacheConfigKeys.CSAC_EVICTION_KEY, eviction, capacityBytes) : null,
        clock);
  }

  /** The policies as the report shows them: admission/eviction/prediction. */
  String policies() {
    return admission + "/" + eviction + "/" + prediction;
  }

  String keyPrefix() {
    return redis.prefix;
  }
}
