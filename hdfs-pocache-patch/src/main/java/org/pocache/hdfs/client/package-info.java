/**
 * The client: {@link org.pocache.hdfs.client.PoCacheFileSystem} ({@code fs.hdfs.impl})
 * and its streams. Proactive reads, sequential reads with late subblocks rebuilt, short
 * reads raced by rebuilds, reader fills, and incremental encoding on write. A failing
 * cache never fails a read or a write here: every path falls back to HDFS's own stream.
 */
package org.pocache.hdfs.client;
