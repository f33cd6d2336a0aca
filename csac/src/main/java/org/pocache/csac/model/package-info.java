/**
 * The analytic model of section 2.2 of the POCache paper: the probability that a read
 * meets a straggler without caching, with data caching and with parity caching.
 */
package org.pocache.csac.model;
