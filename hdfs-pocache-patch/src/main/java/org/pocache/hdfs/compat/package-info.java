/**
 * HDFS calls whose signatures differ between the Hadoop lines the drop-in jars run on,
 * bound to the running Hadoop at run time.
 */
package org.pocache.hdfs.compat;
