package org.pocache.csac.policy;

import org.pocache.csac.FileRef;

/**
 * Decides whether to cache the parity of an accessed file that is not cached
 * (CSAC's G_a), when no straggler is involved.
 */
public interface AdmissionPolicy {
  /** Every read of a file, cached or not. */
  void record(long fileId);

  /**
   * @param fits whether the file fits in the free space without evicting anything
   * @param eviction the eviction policy, to compare the candidate with its would-be victim
   */
  boolean admit(FileRef file, boolean fits, EvictionPolicy eviction);

  String name();
}
