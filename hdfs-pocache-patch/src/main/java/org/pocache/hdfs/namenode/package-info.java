/**
 * Where the Manager runs: inside the NameNode ({@code dfs.namenode.plugins}) or
 * standalone beside it, and the namespace view it gets from the NameNode in each case.
 */
package org.pocache.hdfs.namenode;
