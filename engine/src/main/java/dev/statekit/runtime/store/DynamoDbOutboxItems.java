package dev.statekit.runtime.store;

import static dev.statekit.runtime.store.TableKeys.PARTITION_KEY;
import static dev.statekit.runtime.store.TableKeys.SORT_KEY;

import dev.statekit.bus.QueueIds;
import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A registration of outboxes as one DynamoDB item: {@code pk = outbox#<shard>}, {@code sk = <due
 * ms, 13 digits>#<id>} (so a query on the shard reads what is due first); {@code a} the addresses
 * ({@link #text}; a string set: DynamoDB removes the attribute when its last element goes), {@code
 * r} how many registrations added to it, {@code n:<address>} how many tries to deliver that
 * address's outbox failed, {@code tried} when the last did.
 */
public final class DynamoDbOutboxItems {
  static final String PREFIX = "outbox#";
  public static final String ADDRESSES = "a";
  static final String REGISTRATIONS = "r";
  private static final String ATTEMPTS = "n:";
  private static final String OUT = "o:";
  static final String TRIED = "tried";

  private DynamoDbOutboxItems() {}

  public static Map<String, AttributeValue> key(OutboxKey key) {
    return Map.of(
        PARTITION_KEY, AttributeValue.fromS(partitionKey(key.shard())),
        SORT_KEY, AttributeValue.fromS(sortKey(key)));
  }

  public static String partitionKey(int shard) {
    return PREFIX + shard;
  }

  static String sortKey(OutboxKey key) {
    return SortedKeys.sortKey(key.dueAtMillis(), key.id());
  }

  public static OutboxEntry fromItem(Map<String, AttributeValue> item) {
    int shard = Integer.parseInt(item.get(PARTITION_KEY).s().substring(PREFIX.length()));
    String sortKey = item.get(SORT_KEY).s();
    int hash = sortKey.indexOf('#');
    OutboxKey key =
        new OutboxKey(
            shard, Long.parseLong(sortKey.substring(0, hash)), sortKey.substring(hash + 1));
    Set<Address> addresses = new LinkedHashSet<>();
    AttributeValue stored = item.get(ADDRESSES);
    if (stored != null && stored.hasSs()) {
      stored.ss().forEach(text -> addresses.add(address(text)));
    }
    Map<Address, Integer> attempts = new HashMap<>();
    Map<Address, Set<String>> out = new HashMap<>();
    for (Address address : addresses) {
      AttributeValue count = item.get(attemptsOf(text(address)));
      if (count != null) {
        attempts.put(address, (int) longOf(count));
      }
      out.put(address, outOf(item.get(outOf(text(address)))));
    }
    return new OutboxEntry(
        key, addresses, longOf(item.get(REGISTRATIONS)), attempts, out, longOf(item.get(TRIED)));
  }

  /** An address's {@link dev.statekit.runtime.store.OutboxTries} as the item stores them. */
  public static OutboxTries tries(Map<String, AttributeValue> item, String addressText) {
    return new OutboxTries(
        (int) longOf(item.get(attemptsOf(addressText))), outOf(item.get(outOf(addressText))));
  }

  private static Set<String> outOf(AttributeValue set) {
    return set != null && set.hasSs() ? Set.copyOf(set.ss()) : Set.of();
  }

  /**
   * The string set of what of an address's outbox failed tries delivered all the same ({@link
   * #text} form). Named by a hash of the address, not by the address: a registration holds its
   * addresses twice already (in {@link #ADDRESSES} and in their counts), and a third copy would
   * take a full one past DynamoDB's 400 KB.
   */
  public static String outOf(String addressText) {
    return OUT + QueueIds.sha256(addressText).substring(0, 20);
  }

  /** The attribute that counts the failed tries of an address's outbox ({@link #text} form). */
  public static String attemptsOf(String addressText) {
    return ATTEMPTS + addressText;
  }

  /**
   * An address as {@code <length of its type>:<type>/<id>}: namespaces and ids may hold {@code /},
   * so {@code namespace/type/id} alone could be read two ways.
   */
  public static String text(Address address) {
    String type = address.type().asString();
    return type.length() + ":" + type + "/" + address.id();
  }

  static Address address(String text) {
    int colon = text.indexOf(':');
    try {
      int length = Integer.parseInt(text.substring(0, colon));
      return Address.of(
          TypeName.parse(text.substring(colon + 1, colon + 1 + length)),
          text.substring(colon + 2 + length));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not an address as outbox registrations store them", e);
    }
  }

  private static long longOf(AttributeValue number) {
    return number == null || number.n() == null ? 0 : Long.parseLong(number.n());
  }
}
