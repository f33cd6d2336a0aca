package org.pocache.csac.sim;

/** The counters every strategy reports, kept in one place. */
abstract class CountingStrategy implements Strategy {
  protected long cached;
  protected long evicted;
  protected long prefetched;
  protected boolean lastHit;

  @Override
  public boolean lastReadHit() {
    return lastHit;
  }

  @Override
  public long cachedWeight() {
    return cached;
  }

  @Override
  public long evictedWeight() {
    return evicted;
  }

  @Override
  public long prefetchedWeight() {
    return prefetched;
  }
}
