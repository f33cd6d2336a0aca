/**
 * A trace-driven simulator of the paper's caching experiments (11 to 15): workloads,
 * straggler sensing with errors, and the cache strategies compared (POCache, data
 * caching, Agar's planner).
 */
package org.pocache.csac.sim;
