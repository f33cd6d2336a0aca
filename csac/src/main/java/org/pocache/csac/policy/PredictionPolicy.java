package org.pocache.csac.policy;

import java.util.Iterator;

/**
 * Predicts which files will be read soon (CSAC's G_p), for prefetching. It keeps
 * a bounded history of recently read files.
 */
public interface PredictionPolicy {
  void record(long fileId);

  /** The file is gone (deleted or overwritten). */
  void forget(long fileId);

  /** Files in order of how likely they are to be read soon, most likely first. */
  Iterator<Long> candidates();

  String name();
}
