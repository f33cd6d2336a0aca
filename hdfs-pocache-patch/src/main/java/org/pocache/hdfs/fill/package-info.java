/**
 * The Manager's fill worker: reads a file's data from HDFS, encodes its parity and
 * stores it in Redis for admit-on-read and prefetch fills.
 */
package org.pocache.hdfs.fill;
