package org.pocache.manager;

/**
 * Every POCache configuration key, with its default. Keys are read through
 * {@link PoCacheConfig}, which validates them; each one is documented in
 * {@code pocache-default.xml} and in the README's configuration table, and
 * TestConfigDocs keeps the three in step.
 */
public final class PoCacheConfigKeys {
  private PoCacheConfigKeys() {
  }

  /** Master switch: false makes every POCache hook behave exactly like stock HDFS. */
  public static final String ENABLED_KEY = "dfs.pocache.enabled";
  public static final boolean ENABLED_DEFAULT = false;

  /** Erasure coder: auto (ISA-L if its library loads, else Java), isal (required), or java. */
  public static final String CODER_KEY = "dfs.pocache.coder";
  public static final String CODER_DEFAULT = "auto";
  /** The values {@link #CODER_KEY} accepts. */
  public static final String[] CODER_CHOICES = {"auto", "isal", "java"};
}
