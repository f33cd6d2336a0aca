package org.pocache.csac.sim;

import java.util.Set;
import org.pocache.csac.FileRef;

/** No cache (capacity 0): every read of a file on a straggler hits it. */
final class NoCache extends CountingStrategy {
  private final String name;

  NoCache(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void onWrite(FileRef f) {
  }

  @Override
  public void onStragglers(Set<String> estimated) {
  }

  @Override
  public boolean read(FileRef f, Set<String> actual) {
    return Simulator.blocksOn(f, actual) > 0;
  }
}
