/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * Systematic Reed-Solomon over GF(2^8) with Hadoop's and ISA-L's Cauchy matrix: {@link
 * org.pocache.coder.ErasureCoder} with an ISA-L (JNI) and a pure-Java implementation
 * that produce the same bytes, chosen by {@link org.pocache.coder.Coders}. See
 * docs/coder.md.
 */
package org.pocache.coder;
