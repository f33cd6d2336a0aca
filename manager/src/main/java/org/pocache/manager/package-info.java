/**
 * POCache's configuration: every {@code dfs.pocache.*} key with its default ({@link
 * org.pocache.manager.PoCacheConfigKeys}), read and validated through {@link
 * org.pocache.manager.PoCacheConfig}. See docs/configuration.md.
 */
package org.pocache.manager;
