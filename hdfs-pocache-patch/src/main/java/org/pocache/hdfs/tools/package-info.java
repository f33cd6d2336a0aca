/**
 * The admin tool, the drop-in jar's main class: {@code -report}, {@code -stragglers},
 * {@code -ls}, {@code -evict}, {@code -prefetch}, {@code -checknative}.
 */
package org.pocache.hdfs.tools;
