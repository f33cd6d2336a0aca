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
