/**
 * Systematic Reed-Solomon over GF(2^8) with Hadoop's and ISA-L's Cauchy matrix: {@link
 * org.pocache.coder.ErasureCoder} with an ISA-L (JNI) and a pure-Java implementation
 * that produce the same bytes, chosen by {@link org.pocache.coder.Coders}. See
 * docs/coder.md.
 */
package org.pocache.coder;
