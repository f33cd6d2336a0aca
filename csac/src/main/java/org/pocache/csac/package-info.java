/**
 * CSAC, the straggler-aware cache algorithm of the POCache paper (Algorithm 1): {@link
 * org.pocache.csac.Csac} decides per read whether a file's parity is cached, should be
 * cached or not, weighted by {@link org.pocache.csac.ParityFootprint}. HDFS-free; see
 * docs/csac.md.
 */
package org.pocache.csac;
