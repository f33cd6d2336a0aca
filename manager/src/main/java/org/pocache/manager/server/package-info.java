/**
 * The Manager: the cache index and CSAC behind one lock, write reservations, the
 * straggler list, parity secrets, fills and housekeeping ({@link
 * org.pocache.manager.server.CacheService}), served by {@link
 * org.pocache.manager.server.ManagerRpcServer}. It sees the namespace only through
 * {@link org.pocache.manager.server.Namespace}. See docs/architecture.md.
 */
package org.pocache.manager.server;
