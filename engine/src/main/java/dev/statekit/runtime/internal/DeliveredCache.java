package dev.statekit.runtime.internal;

import dev.statekit.function.Address;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outboxes this process delivered, by address, incarnation and version, so a warm process that
 * processes the same address again knows its outbox is out without a receipt. Bounded: the least
 * recently used entries are dropped.
 */
final class DeliveredCache {
  private final Map<Address, String> delivered;

  DeliveredCache(int capacity) {
    this.delivered =
        new LinkedHashMap<>(256, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Address, String> eldest) {
            return size() > capacity;
          }
        };
  }

  synchronized boolean delivered(Address address, long incarnation, long outboxVersion) {
    return key(incarnation, outboxVersion).equals(delivered.get(address));
  }

  synchronized void record(Address address, long incarnation, long outboxVersion) {
    delivered.put(address, key(incarnation, outboxVersion));
  }

  private static String key(long incarnation, long outboxVersion) {
    return incarnation + "/" + outboxVersion;
  }
}
