/**
 * The parity tier: parity values in Redis under keys that name their file, generation
 * and position ({@link org.pocache.cache.ParityKey}), checked on read ({@link
 * org.pocache.cache.ParityValue}) and, under parity protection, sealed ({@link
 * org.pocache.cache.ParitySeal}); {@link org.pocache.cache.RedisParityStore} does the
 * I/O. HDFS-free.
 */
package org.pocache.cache;
