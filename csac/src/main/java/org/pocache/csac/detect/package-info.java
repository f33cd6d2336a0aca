/**
 * Straggler detectors: one service-rate sample per DataNode per interval in, the
 * DataNodes judged slow out ({@code median-mad}, {@code three-sigma}); chosen by name
 * through {@link org.pocache.csac.detect.Detectors}.
 */
package org.pocache.csac.detect;
