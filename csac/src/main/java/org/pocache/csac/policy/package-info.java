/**
 * CSAC's pluggable policies, one small class each, chosen by name through {@link
 * org.pocache.csac.policy.Policies}: admission (cache-upon-access, TinyLFU, size-aware),
 * eviction (LRU, LFU, ARC, S3-FIFO) and prediction for prefetching (recency, frequency,
 * both).
 */
package org.pocache.csac.policy;
