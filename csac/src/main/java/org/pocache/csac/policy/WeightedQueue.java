package org.pocache.csac.policy;

import java.util.HashMap;
import java.util.Map;

/**
 * A doubly linked queue of file ids with weights and an id index: O(1) push to
 * the front, pop from the back, removal and lookup; keeps its total weight.
 */
final class WeightedQueue {
  static final class Node {
    final long id;
    long weight;
    int freq; // used by S3-FIFO
    Node prev;
    Node next;

    Node(long id, long weight) {
      this.id = id;
      this.weight = weight;
    }
  }

  private final Map<Long, Node> index = new HashMap<>();
  private final Node head = new Node(-1, 0); // head.next = front (newest), head.prev = back (oldest)
  private long weight;

  WeightedQueue() {
    head.next = head;
    head.prev = head;
  }

  long weight() {
    return weight;
  }

  int size() {
    return index.size();
  }

  boolean isEmpty() {
    return index.isEmpty();
  }

  Node get(long id) {
    return index.get(id);
  }

  boolean contains(long id) {
    return index.containsKey(id);
  }

  void pushFront(Node n) {
    index.put(n.id, n);
    weight += n.weight;
    n.next = head.next;
    n.prev = head;
    head.next.prev = n;
    head.next = n;
  }

  Node pushFront(long id, long w) {
    Node n = new Node(id, w);
    pushFront(n);
    return n;
  }

  /** The oldest node, or null. */
  Node back() {
    return head.prev == head ? null : head.prev;
  }

  /** The node before {@code n} towards the front, or null. */
  Node newer(Node n) {
    return n.prev == head ? null : n.prev;
  }

  Node remove(long id) {
    Node n = index.remove(id);
    if (n != null) {
      n.prev.next = n.next;
      n.next.prev = n.prev;
      weight -= n.weight;
    }
    return n;
  }

  Node popBack() {
    Node n = back();
    return n == null ? null : remove(n.id);
  }
}
