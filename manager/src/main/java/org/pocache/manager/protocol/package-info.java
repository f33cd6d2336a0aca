/**
 * The Manager's RPC protocols (clients and DataNodes) over Hadoop IPC, their protobuf
 * translators, the client that the data path and the plugins use ({@link
 * org.pocache.manager.protocol.ManagerClient}), and how they authenticate under
 * Kerberos.
 */
package org.pocache.manager.protocol;
