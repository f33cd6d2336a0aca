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
package org.pocache.coder.layout;

/** Where one byte of a file sits: (stripe, substripe, data index, offset in the subblock). */
public final class SubblockAddress {
  public final long stripe;
  public final int substripe;
  public final int dataIndex;
  public final int offset;

  SubblockAddress(long stripe, int substripe, int dataIndex, int offset) {
    this.stripe = stripe;
    this.substripe = substripe;
    this.dataIndex = dataIndex;
    this.offset = offset;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SubblockAddress)) {
      return false;
    }
    SubblockAddress a = (SubblockAddress) o;
    return a.stripe == stripe && a.substripe == substripe && a.dataIndex == dataIndex && a.offset == offset;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(stripe) * 31 * 31 * 31 + substripe * 31 * 31 + dataIndex * 31 + offset;
  }

  @Override
  public String toString() {
    return "(stripe " + stripe + ", substripe " + substripe + ", data " + dataIndex + ", offset " + offset + ")";
  }
}
