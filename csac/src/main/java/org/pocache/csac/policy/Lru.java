package org.pocache.csac.policy;

import java.util.HashMap;
import java.util.Map;

/** Least recently used: evict the cached file read longest ago. O(1) per operation. */
public final class Lru implements EvictionPolicy {
  private static final class Node {
    final long id;
    Node prev;
    Node next;

    Node(long id) {
      this.id = id;
    }
  }

  private final Map<Long, Node> nodes = new HashMap<>();
  private final Node head = new Node(-1); // head.next = most recent, head.prev = least recent

  public Lru() {
    head.prev = head;
    head.next = head;
  }

  @Override
  public String name() {
    return "lru";
  }

  @Override
  public void onAccess(long fileId, boolean cached) {
    Node n = nodes.get(fileId);
    if (n != null) {
      unlink(n);
      linkFirst(n);
    }
  }

  @Override
  public void onInsert(long fileId, long weight) {
    Node n = nodes.get(fileId);
    if (n == null) {
      n = new Node(fileId);
      nodes.put(fileId, n);
    } else {
      unlink(n);
    }
    linkFirst(n);
  }

  @Override
  public long victim(long protectedId) {
    Node n = head.prev;
    if (n != head && n.id == protectedId) {
      n = n.prev;
    }
    return n == head ? -1 : n.id;
  }

  @Override
  public void onRemove(long fileId) {
    Node n = nodes.remove(fileId);
    if (n != null) {
      unlink(n);
    }
  }

  private void linkFirst(Node n) {
    n.next = head.next;
    n.prev = head;
    head.next.prev = n;
    head.next = n;
  }

  private static void unlink(Node n) {
    n.prev.next = n.next;
    n.next.prev = n.prev;
  }
}
