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
package org.pocache.manager;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.pocache.cache.RedisSettings;

/**
 * Every POCache configuration key, with its default. Keys are read through
 * {@link PoCacheConfig}, which validates them; each one is documented in
 * {@code pocache-default.xml} and in the key tables of docs/configuration.md, and
 * TestConfigDocs keeps the three in step.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PoCacheConfigKeys {
  private PoCacheConfigKeys() {
  }

  /** Master switch: false makes every POCache hook behave exactly like stock HDFS. */
  public static final String ENABLED_KEY = "dfs.pocache.enabled";
  public static final boolean ENABLED_DEFAULT = false;

  /** Erasure coder: auto (ISA-L if its library loads, else Java), isal (required), or java. */
  public static final String CODER_KEY = "dfs.pocache.coder";
  public static final String CODER_DEFAULT = "auto";
  /** The values {@link #CODER_KEY} accepts. */
  public static final String[] CODER_CHOICES = {"auto", "isal", "java"};

  // The parity tier (validated by org.pocache.cache.RedisSettings).

  /** Redis topology: standalone (one server) or cluster (Redis Cluster; hosts are seeds). */
  public static final String REDIS_TOPOLOGY_KEY = RedisSettings.TOPOLOGY_KEY;
  public static final String REDIS_TOPOLOGY_DEFAULT = RedisSettings.TOPOLOGY_DEFAULT;

  /** Redis host:port, or a comma-separated list of cluster seeds. */
  public static final String REDIS_HOSTS_KEY = RedisSettings.HOSTS_KEY;
  public static final String REDIS_HOSTS_DEFAULT = RedisSettings.HOSTS_DEFAULT;

  /** ACL user name for AUTH (empty: the default user). */
  public static final String REDIS_USER_KEY = RedisSettings.USER_KEY;
  public static final String REDIS_USER_DEFAULT = RedisSettings.USER_DEFAULT;

  /** Password for AUTH (requirepass, or the ACL user's password); empty for none. */
  public static final String REDIS_PASSWORD_KEY = RedisSettings.PASSWORD_KEY;
  public static final String REDIS_PASSWORD_DEFAULT = RedisSettings.PASSWORD_DEFAULT;

  /** Connect with TLS; needs dfs.pocache.redis.tls.truststore. Host names are checked against the certificate. */
  public static final String REDIS_TLS_KEY = RedisSettings.TLS_KEY;
  public static final String REDIS_TLS_DEFAULT = RedisSettings.TLS_DEFAULT;

  /** Trust store (PKCS12, or JKS by .jks extension) holding the CA that signed Redis's certificate. */
  public static final String REDIS_TRUSTSTORE_KEY = RedisSettings.TRUSTSTORE_KEY;
  public static final String REDIS_TRUSTSTORE_DEFAULT = RedisSettings.TRUSTSTORE_DEFAULT;

  /** Password of the trust store (empty for none). */
  public static final String REDIS_TRUSTSTORE_PASSWORD_KEY = RedisSettings.TRUSTSTORE_PASSWORD_KEY;
  public static final String REDIS_TRUSTSTORE_PASSWORD_DEFAULT = RedisSettings.TRUSTSTORE_PASSWORD_DEFAULT;

  /** Connect timeout to Redis, milliseconds. */
  public static final String REDIS_CONNECT_TIMEOUT_KEY = RedisSettings.CONNECT_TIMEOUT_KEY;
  public static final String REDIS_CONNECT_TIMEOUT_DEFAULT = RedisSettings.CONNECT_TIMEOUT_DEFAULT;

  /** Read (socket) timeout for a Redis call, milliseconds. */
  public static final String REDIS_READ_TIMEOUT_KEY = RedisSettings.READ_TIMEOUT_KEY;
  public static final String REDIS_READ_TIMEOUT_DEFAULT = RedisSettings.READ_TIMEOUT_DEFAULT;

  /** Maximum pooled connections per Redis node. */
  public static final String REDIS_POOL_MAX_KEY = RedisSettings.POOL_MAX_KEY;
  public static final String REDIS_POOL_MAX_DEFAULT = RedisSettings.POOL_MAX_DEFAULT;

  /** Retries of idempotent calls (GET, DEL) after a failure; writes are not retried. */
  public static final String REDIS_RETRIES_KEY = RedisSettings.RETRIES_KEY;
  public static final String REDIS_RETRIES_DEFAULT = RedisSettings.RETRIES_DEFAULT;

  /** Backoff before the first retry, milliseconds, doubling per retry. */
  public static final String REDIS_RETRY_BACKOFF_KEY = RedisSettings.BACKOFF_KEY;
  public static final String REDIS_RETRY_BACKOFF_DEFAULT = RedisSettings.BACKOFF_DEFAULT;

  /** Consecutive failed calls that open the circuit breaker. */
  public static final String REDIS_BREAKER_FAILURES_KEY = RedisSettings.BREAKER_FAILURES_KEY;
  public static final String REDIS_BREAKER_FAILURES_DEFAULT = RedisSettings.BREAKER_FAILURES_DEFAULT;

  /** How long an open breaker fails calls at once before trying Redis again, milliseconds. */
  public static final String REDIS_BREAKER_OPEN_KEY = RedisSettings.BREAKER_OPEN_KEY;
  public static final String REDIS_BREAKER_OPEN_DEFAULT = RedisSettings.BREAKER_OPEN_DEFAULT;

  /** Prefix of every POCache key, so several HDFS clusters can share one Redis (no braces or spaces). */
  public static final String REDIS_KEY_PREFIX_KEY = RedisSettings.PREFIX_KEY;
  public static final String REDIS_KEY_PREFIX_DEFAULT = RedisSettings.PREFIX_DEFAULT;

  /** Bytes of asynchronous parity uploads in flight per client before a writer waits. */
  public static final String REDIS_ASYNC_MAX_BYTES_KEY = RedisSettings.ASYNC_MAX_BYTES_KEY;
  public static final String REDIS_ASYNC_MAX_BYTES_DEFAULT = RedisSettings.ASYNC_MAX_BYTES_DEFAULT;

  /**
   * Parity uploads to a standalone Redis without TLS use POCache's own RESP connections (about half the client CPU
   * per MiB of Jedis's); false sends them through Jedis like every other call. Ignored for a cluster or with TLS.
   */
  public static final String REDIS_RESP_SET_KEY = RedisSettings.RESP_SET_KEY;
  public static final String REDIS_RESP_SET_DEFAULT = RedisSettings.RESP_SET_DEFAULT;
  public static final String REDIS_RESP_GET_KEY = RedisSettings.RESP_GET_KEY;
  public static final String REDIS_RESP_GET_DEFAULT = RedisSettings.RESP_GET_DEFAULT;

  // The Manager and its straggler list.

  /**
   * host:port the Manager's RPC server listens on (in the NameNode with the plugin). Clients and DataNodes connect
   * to this port on the NameNode's host when the host is 0.0.0.0. In an HA pair or a federation,
   * {@code dfs.pocache.manager.address.<nameservice>.<namenode id>} (or {@code .<nameservice>}) overrides it for
   * that NameNode's Manager ({@link org.pocache.manager.protocol.ManagerAddresses}).
   */
  public static final String MANAGER_ADDRESS_KEY = "dfs.pocache.manager.address";
  public static final String MANAGER_ADDRESS_DEFAULT = "0.0.0.0:8047";

  /** RPC handler threads of the Manager. */
  public static final String MANAGER_HANDLERS_KEY = "dfs.pocache.manager.handlers";
  public static final String MANAGER_HANDLERS_DEFAULT = "8";

  /**
   * How long, milliseconds, the Manager takes a user's READ permission on a complete file as the NameNode last
   * granted it for the same path: a lookup then asks the NameNode only whether the path is still the same file,
   * unchanged, instead of checking the permission and listing the blocks again; a permission taken away shows in
   * lookups at the latest this much later. 0: every lookup is checked in full.
   */
  public static final String MANAGER_LOOKUP_CACHE_KEY = "dfs.pocache.manager.lookup.cache.ms";
  public static final String MANAGER_LOOKUP_CACHE_DEFAULT = "1000";

  /** Timeout of a call to the Manager, milliseconds: a missing Manager costs a caller at most this much. */
  public static final String MANAGER_RPC_TIMEOUT_KEY = "dfs.pocache.manager.rpc.timeout.ms";
  public static final String MANAGER_RPC_TIMEOUT_DEFAULT = "200";

  /**
   * After a call the Manager did not answer, clients and DataNodes skip it for this long, milliseconds (then one
   * call tries it again): a dead or unreachable Manager costs one timeout per period. 0 tries every call.
   */
  public static final String MANAGER_BREAKER_OPEN_KEY = "dfs.pocache.manager.breaker.open.ms";
  public static final String MANAGER_BREAKER_OPEN_DEFAULT = "10000";

  /**
   * Straggler detector: median-mad (robust; finds one straggler among few DataNodes), three-sigma (the paper's
   * rule; cannot flag a single straggler among 10 or fewer DataNodes) or none (lists no DataNode).
   */
  public static final String STRAGGLER_DETECTOR_KEY = "dfs.pocache.straggler.detector";
  public static final String STRAGGLER_DETECTOR_DEFAULT = "median-mad";

  /** Fresh DataNode samples needed before anything is flagged. */
  public static final String STRAGGLER_MIN_SAMPLES_KEY = "dfs.pocache.straggler.min.samples";
  public static final String STRAGGLER_MIN_SAMPLES_DEFAULT = "3";

  /** A DataNode's service-rate sample counts for this long, milliseconds. */
  public static final String STRAGGLER_SAMPLE_TTL_KEY = "dfs.pocache.straggler.sample.ttl.ms";
  public static final String STRAGGLER_SAMPLE_TTL_DEFAULT = "10000";

  /**
   * A flagged DataNode leaves the list when not flagged again for this long (a fresh normal sample clears it at
   * once), milliseconds.
   */
  public static final String STRAGGLER_REPORT_TTL_KEY = "dfs.pocache.straggler.report.ttl.ms";
  public static final String STRAGGLER_REPORT_TTL_DEFAULT = "60000";

  /**
   * median-mad only: a straggler must also be at least this fraction below the median
   * rate (0.75: under a quarter of it; leaving a piece to parity moves k - 1 reads to
   * other DataNodes, so a DataNode merely shared by two readers is no straggler).
   */
  public static final String STRAGGLER_MIN_FRACTION_KEY = "dfs.pocache.straggler.min.fraction.below.median";
  public static final String STRAGGLER_MIN_FRACTION_DEFAULT = "0.75";

  /** How often each DataNode's POCache plugin sends its service-rate sample to the Manager, milliseconds. */
  public static final String DATANODE_HEARTBEAT_INTERVAL_KEY = "dfs.pocache.datanode.heartbeat.interval.ms";
  public static final String DATANODE_HEARTBEAT_INTERVAL_DEFAULT = "2000";

  // Code, cache and CSAC; the Manager's housekeeping.

  /**
   * Data pieces per stripe k for replicated (contiguous) files; an erasure-coded file uses its HDFS policy's data
   * units instead. 2 to 32.
   */
  public static final String CODE_K_KEY = "dfs.pocache.code.k";
  public static final String CODE_K_DEFAULT = "4";

  /** Parity pieces per stripe m cached in Redis (k + m at most 36). 1 to 4. */
  public static final String CODE_M_KEY = "dfs.pocache.code.m";
  public static final String CODE_M_DEFAULT = "1";

  /**
   * Subblock size S of replicated files, bytes: the unit of incremental encoding, of parity values and of proactive
   * reads. Must divide the block size. Erasure-coded files are sliced by their policy's cell instead (one substripe
   * = one row of cells).
   */
  public static final String SUBBLOCK_KEY = "dfs.pocache.subblock.bytes";
  public static final String SUBBLOCK_DEFAULT = "1048576";

  /** Parity bytes the Manager may keep in Redis (CSAC's T). Checked against Redis's maxmemory at startup. */
  public static final String CACHE_CAPACITY_KEY = "dfs.pocache.cache.capacity.bytes";
  public static final String CACHE_CAPACITY_DEFAULT = "1073741824";

  /**
   * Largest file whose parity is cached. A write of unknown size reserves the parity
   * of one stripe and the reservation grows with the file; past this size it ends.
   */
  public static final String CACHE_MAX_FILE_KEY = "dfs.pocache.cache.max.file.bytes";
  public static final String CACHE_MAX_FILE_DEFAULT = "1073741824";

  /**
   * Smallest file whose parity is cached, bytes: shorter files are never cached on write, on a read miss or by
   * prefetch (their parity would cost a Redis value and a Manager entry for almost no data). The default keeps
   * empty files out (_SUCCESS markers and the like).
   */
  public static final String CACHE_MIN_FILE_KEY = "dfs.pocache.cache.min.file.bytes";
  public static final String CACHE_MIN_FILE_DEFAULT = "1";

  /**
   * A read miss of a replicated file shorter than this many full blocks (at most k) is admitted only while one of its
   * blocks is on a listed straggler. Such a file's parity is as large as its data; 1 admits short files as any other.
   */
  public static final String CACHE_READ_MIN_BLOCKS_KEY = "dfs.pocache.cache.read.min.blocks";
  public static final String CACHE_READ_MIN_BLOCKS_DEFAULT = "2";

  /**
   * Directory names whose files POCache leaves alone: not cached on write, not admitted
   * when read, and opened without a Manager lookup (MapReduce's staging files and job history).
   */
  public static final String EXCLUDE_DIRS_KEY = "dfs.pocache.exclude.dirs";
  public static final String EXCLUDE_DIRS_DEFAULT = ".staging,done_intermediate";
  /** The former name of {@link #EXCLUDE_DIRS_KEY}, still read (with a warning) when the new one is not set. */
  public static final String DEPRECATED_WRITE_EXCLUDE_DIRS = "dfs.pocache.write.exclude.dirs";

  /**
   * Replicated files are cached on write only when they are at least this many full blocks
   * long (at most k): below that their parity, one block per stripe, is more than 1/n of
   * the file; shorter ones may be cached when read. A writer asks the Manager only once
   * the file is past one block less than that.
   */
  public static final String WRITE_MIN_BLOCKS_KEY = "dfs.pocache.write.min.blocks";
  public static final String WRITE_MIN_BLOCKS_DEFAULT = "2";

  /** CSAC admission policy G_a while no straggler is known: cache-upon-access, tinylfu or size-aware. */
  public static final String CSAC_ADMISSION_KEY = "dfs.pocache.csac.admission";
  public static final String CSAC_ADMISSION_DEFAULT = "cache-upon-access";

  /**
   * CSAC eviction policy G_e: benefit (reads x data protected per parity byte, with aging),
   * lru, lfu, arc or s3fifo.
   */
  public static final String CSAC_EVICTION_KEY = "dfs.pocache.csac.eviction";
  public static final String CSAC_EVICTION_DEFAULT = "benefit";

  /** CSAC prediction policy G_p for prefetching: recency, frequency or recency-frequency. */
  public static final String CSAC_PREDICTION_KEY = "dfs.pocache.csac.prediction";
  public static final String CSAC_PREDICTION_DEFAULT = "recency";

  /** Files the prediction policy remembers. */
  public static final String CSAC_PREDICTION_HISTORY_KEY = "dfs.pocache.csac.prediction.history";
  public static final String CSAC_PREDICTION_HISTORY_DEFAULT = "10000";

  /**
   * theta_p: when a new straggler appears, prefetch parity of predicted files on it up to this fraction of the
   * capacity; 0 turns prefetching off.
   */
  public static final String CSAC_PREFETCH_RATIO_KEY = "dfs.pocache.csac.prefetch.ratio";
  public static final String CSAC_PREFETCH_RATIO_DEFAULT = "0.1";

  /** Predicted files looked at per prefetch round. */
  public static final String CSAC_PREFETCH_CANDIDATES_KEY = "dfs.pocache.csac.prefetch.candidates";
  public static final String CSAC_PREFETCH_CANDIDATES_DEFAULT = "1000";

  /** Files the admission policy's frequency sketch is sized for (tinylfu). */
  public static final String CSAC_EXPECTED_FILES_KEY = "dfs.pocache.csac.expected.files";
  public static final String CSAC_EXPECTED_FILES_DEFAULT = "100000";

  /**
   * While stragglers are known CSAC admits only files on them; after this long with the same non-empty list it
   * consults the admission policy again for other files, milliseconds.
   */
  public static final String CSAC_EXCLUSIVE_LIMIT_KEY = "dfs.pocache.csac.straggler.exclusive.ms";
  public static final String CSAC_EXCLUSIVE_LIMIT_DEFAULT = "600000";

  /**
   * While stragglers are known, evict files with no block on them first (in the eviction policy's order) and files
   * on them only when no other is left, in the eviction policy's order (benefit weighs the data they hold on the
   * stragglers); false: the eviction policy alone, as the paper.
   */
  public static final String CSAC_STRAGGLER_KEEP_KEY = "dfs.pocache.csac.straggler.keep";
  public static final boolean CSAC_STRAGGLER_KEEP_DEFAULT = true;

  /**
   * A write reservation or fill not committed within this long expires: its space is released and its keys deleted,
   * milliseconds.
   */
  public static final String MANAGER_RESERVATION_TTL_KEY = "dfs.pocache.manager.reservation.ttl.ms";
  public static final String MANAGER_RESERVATION_TTL_DEFAULT = "3600000";

  /**
   * How often the Manager refreshes the straggler list into CSAC, starts prefetches, expires reservations and
   * checks Redis (a restarted Redis invalidates the index), milliseconds.
   */
  public static final String MANAGER_TICK_KEY = "dfs.pocache.manager.tick.ms";
  public static final String MANAGER_TICK_DEFAULT = "1000";

  /**
   * Class implementing org.pocache.manager.server.ParityFiller that executes admit-on-read and prefetch fills (the
   * fill worker); empty: no fills (writes still cache).
   */
  public static final String MANAGER_FILLER_KEY = "dfs.pocache.manager.filler.class";
  public static final String MANAGER_FILLER_DEFAULT = "org.pocache.hdfs.fill.FillWorker";

  /**
   * Who may run the Manager's operator commands (evict, prefetch) besides the Manager's own user and
   * dfs.permissions.superusergroup: a Hadoop ACL, "users groups".
   */
  public static final String MANAGER_ADMINS_KEY = "dfs.pocache.manager.admins";
  public static final String MANAGER_ADMINS_DEFAULT = "";

  /**
   * The Kerberos principal of a standalone Manager (empty: the Manager runs in the
   * NameNode and is reached as dfs.namenode.kerberos.principal). _HOST is replaced by
   * the Manager's host name.
   */
  public static final String MANAGER_KERBEROS_PRINCIPAL_KEY = "dfs.pocache.manager.kerberos.principal";
  public static final String MANAGER_KERBEROS_PRINCIPAL_DEFAULT = "";
  /** The keytab a standalone Manager logs in with. */
  public static final String MANAGER_KEYTAB_KEY = "dfs.pocache.manager.keytab.file";
  public static final String MANAGER_KEYTAB_DEFAULT = "";

  /**
   * Who besides the Manager's own user may send DataNode heartbeats (the users the
   * DataNodes run as): a Hadoop ACL, "users groups".
   */
  public static final String MANAGER_DATANODE_USERS_KEY = "dfs.pocache.manager.datanode.users";
  public static final String MANAGER_DATANODE_USERS_DEFAULT = "";

  /**
   * The most of the cache one user's open write reservations may hold; beyond it that
   * user's new writes are not cached (the Manager's own fills are not counted).
   */
  public static final String MANAGER_USER_SHARE_KEY = "dfs.pocache.manager.reservation.user.share";
  public static final String MANAGER_USER_SHARE_DEFAULT = "0.5";

  // Parity protection in Redis (read by the Manager; clients follow their descriptors).

  /**
   * How parity values are protected: privacy (AES-GCM and digests), integrity (digests) or none;
   * empty: privacy when hadoop.security.authentication is kerberos, else integrity.
   */
  public static final String PARITY_PROTECTION_KEY = "dfs.pocache.parity.protection";
  public static final String PARITY_PROTECTION_DEFAULT = "";
  /**
   * A file only the Manager's user can read, one "id:base64-secret" per line; the last
   * line seals new parity, the others still open what they sealed (rotation).
   */
  public static final String PARITY_SECRET_FILE_KEY = "dfs.pocache.parity.secret.file";
  public static final String PARITY_SECRET_FILE_DEFAULT = "";
  /**
   * The same secrets, comma-separated, read with Configuration.getPassword so that a
   * credential provider (hadoop.security.credential.provider.path) can hold them.
   */
  public static final String PARITY_SECRET_KEY = "dfs.pocache.parity.secret";
  public static final String PARITY_SECRET_DEFAULT = "";

  // The fill worker.

  /**
   * Threads of the fill worker (admit-on-read and prefetch fills), in the NameNode with the plugin or in the
   * standalone Manager.
   */
  public static final String FILL_THREADS_KEY = "dfs.pocache.fill.threads";
  public static final String FILL_THREADS_DEFAULT = "2";

  /** Fills waiting for a fill thread; when full, new fills are refused and their reservations released. */
  public static final String FILL_QUEUE_KEY = "dfs.pocache.fill.queue";
  public static final String FILL_QUEUE_DEFAULT = "64";

  /** Bytes per second the fill worker reads from HDFS, all fill threads together; 0: unlimited. */
  public static final String FILL_BANDWIDTH_KEY = "dfs.pocache.fill.bandwidth";
  public static final String FILL_BANDWIDTH_DEFAULT = "67108864";

  // The client read path.

  /**
   * Client threads for proactive reads (data preads and parity GETs), per FileSystem; late reads to a straggler
   * finish on them in the background.
   */
  public static final String READ_THREADS_KEY = "dfs.pocache.read.threads";
  public static final String READ_THREADS_DEFAULT = "64";

  /**
   * Substripes a proactive read fetches ahead of the one being completed, and subblocks a sequential read streams
   * ahead of its caller once it reads ahead (from a late subblock or a block left to parity on; until then it reads
   * HDFS's stream itself).
   */
  public static final String READ_INFLIGHT_KEY = "dfs.pocache.read.inflight.substripes";
  public static final String READ_INFLIGHT_DEFAULT = "4";

  /**
   * Bytes of subblock arrays a client FileSystem keeps for reuse by its reads and its writers' parity accumulators
   * (beyond that, arrays are garbage).
   */
  public static final String READ_BUFFER_POOL_KEY = "dfs.pocache.read.buffer.pool.bytes";
  public static final String READ_BUFFER_POOL_DEFAULT = "67108864";

  /**
   * A read miss the Manager admits is handed to the reader, which encodes what it reads and uploads the parity,
   * when its parity accumulators (m x block size; m cells for an erasure-coded file) fit in this many bytes; else
   * the Manager's fill worker fills it. 0: readers never fill.
   */
  public static final String READ_FILL_MAX_KEY = "dfs.pocache.read.fill.max.bytes";
  public static final String READ_FILL_MAX_DEFAULT = "67108864";

  /**
   * Sequential and lazy positional reads: a subblock read slower than this many times the recent mean is late (a
   * sequential read races it with a rebuild from the other pieces and parity and reads ahead until the caller takes
   * its reads back; a lazy positional read reads the rest of its range proactively).
   */
  public static final String READ_DEADLINE_FACTOR_KEY = "dfs.pocache.read.deadline.factor";
  public static final String READ_DEADLINE_FACTOR_DEFAULT = "3.0";

  /**
   * Bytes a client FileSystem's streams may hold together in whole blocks read ahead, in parallel, for callers that
   * read a cached file on past one block (at most an eighth of the JVM's heap). 0: no such read-ahead.
   */
  public static final String READ_PREFETCH_KEY = "dfs.pocache.read.prefetch.bytes";
  public static final String READ_PREFETCH_DEFAULT = "67108864";

  /**
   * How eagerly a positional read of a cached file is proactive: {@code lazy} (while no DataNode is suspected of
   * being slow, HDFS's own read on the caller's thread, a block at a time, timed: a late block makes its DataNode
   * suspected and the rest of the read is proactive; while one is, as {@code suspected}), {@code suspected} (every
   * read of whole substripes reads its k data pieces at once on the read pool and asks for the parity with them
   * while any DataNode is suspected, listed by the Manager or late for this client, otherwise once a data piece lags
   * behind its peers) or {@code always} (the parity with the data on every read, as the POCache paper's reader).
   */
  public static final String READ_PROACTIVE_KEY = "dfs.pocache.read.proactive";
  public static final String READ_PROACTIVE_DEFAULT = "lazy";
  public static final String[] READ_PROACTIVE_CHOICES = {"lazy", "suspected", "always"};

  /**
   * How many of a substripe's m cached parity pieces a positional read asks for and decodes with: EC-Cache's late
   * binding (k + this many of the k + m pieces). 0, or m or more: all m. Fewer moves fewer parity bytes from Redis
   * per decode but masks at most this many slow pieces of a substripe.
   */
  public static final String READ_PARITY_PIECES_KEY = "dfs.pocache.read.parity.pieces";
  public static final String READ_PARITY_PIECES_DEFAULT = "0";

  /**
   * Whether a positional read of a replicated file without cached parity that spans several of its blocks reads
   * them at once, one read per block on the read pool (HDFS's stream reads them one after another).
   */
  public static final String READ_PARALLEL_BLOCKS_KEY = "dfs.pocache.read.parallel.blocks";
  public static final boolean READ_PARALLEL_BLOCKS_DEFAULT = true;

  /**
   * Whether sequential reads of an erasure-coded file whose parity is cached are read ahead in whole substripes
   * through the proactive reader (a cell that lags behind its row is decoded from parity), rather than by HDFS's
   * striped stream, which waits for the slowest cell of every row.
   */
  public static final String READ_STRIPED_SEQUENTIAL_KEY = "dfs.pocache.read.striped.sequential";
  public static final boolean READ_STRIPED_SEQUENTIAL_DEFAULT = true;

  /** Sequential and lazy positional reads: the deadline is never shorter than this, milliseconds. */
  public static final String READ_DEADLINE_MIN_KEY = "dfs.pocache.read.deadline.min.ms";
  public static final String READ_DEADLINE_MIN_DEFAULT = "20";

  /**
   * How long POCache's own streams of a file with cached parity wait for a DataNode to
   * connect or to send its next bytes before they leave the block to parity, milliseconds;
   * HDFS's own reads, the fallbacks included, keep dfs.client.socket-timeout.
   */
  public static final String READ_DATANODE_TIMEOUT_KEY = "dfs.pocache.read.datanode.timeout.ms";
  public static final String READ_DATANODE_TIMEOUT_DEFAULT = "1000";
}
