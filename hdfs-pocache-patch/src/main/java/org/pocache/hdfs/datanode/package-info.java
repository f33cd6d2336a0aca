/**
 * The DataNode plugin ({@code dfs.datanode.plugins}): one service-rate sample per
 * heartbeat interval from the DataNode's own metrics, sent to the Manager.
 */
package org.pocache.hdfs.datanode;
