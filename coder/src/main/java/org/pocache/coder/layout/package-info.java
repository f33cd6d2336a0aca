/**
 * How a file is cut into stripes, blocks, subblocks and substripes, for replicated
 * (contiguous) and erasure-coded (striped) files, and which byte ranges of a read each
 * piece covers.
 */
package org.pocache.coder.layout;
