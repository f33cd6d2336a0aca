package org.pocache.csac.policy;

import org.pocache.csac.FileRef;

/** Cache-upon-access, the POCache paper's admission: always admit. */
public final class CacheUponAccess implements AdmissionPolicy {
  @Override
  public void record(long fileId) {
  }

  @Override
  public boolean admit(FileRef file, boolean fits, EvictionPolicy eviction) {
    return true;
  }

  @Override
  public String name() {
    return "cache-upon-access";
  }
}
