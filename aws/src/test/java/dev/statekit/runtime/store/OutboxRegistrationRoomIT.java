package dev.statekit.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.aws.dynamodb.DynamoDbFunctionStore;
import dev.statekit.function.Address;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import dev.statekit.types.TypeName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Invariants 3 and 5 (nothing stuck, failures visible) on DynamoDB. A batch packs addresses into
 * one registration until they take 150 KB ({@code BatchProcessor.REGISTRATION_BYTES}, "half an
 * item, for their counts"): the set {@code a} and one {@code n:<address>} count each stay under
 * DynamoDB's 400 KB. A failed try now also writes {@code o:<address>}, a third copy of every
 * address as an attribute name: 450 KB and more. DynamoDB refuses the update (item size), {@code
 * OutboxOutcomes.tried} swallows the error, so no try is ever counted: the outboxes are never
 * dead-lettered after maxAttempts, the sweep takes the registration up again at once every time
 * ({@code tried} not written), and what went out is sent again on every try: the very repeat the
 * "o:" sets were added to stop.
 *
 * <p>Schedule: a batch of long addresses (as many as one registration takes) whose egress to one
 * sink goes out while another sink is down; the try is recorded.
 */
@ExtendWith(RealServers.class)
class OutboxRegistrationRoomIT {
  @Test
  void aTryOfAFullRegistrationIsCounted(DynamoDbClient dynamoDb, TestTable table) {
    FunctionStore store = new DynamoDbFunctionStore(dynamoDb, table.name());
    OutboxKey key = new OutboxKey(0, 1_000_000, "fullregistration");
    List<Address> addresses = fullRegistration();
    store.registerOutboxes(key, addresses);

    Map<Address, Set<String>> out = new LinkedHashMap<>();
    addresses.forEach(address -> out.put(address, Set.of("e0")));
    store.outboxesTried(key, out, 2_000_000);

    OutboxTries tries = store.outboxPending(key, addresses.get(0)).orElseThrow();
    assertEquals(1, tries.attempts(), "the try is counted");
    assertEquals(Set.of("e0"), tries.out(), "what went out is recorded");
  }

  /**
   * What went out is kept only while it fits: a try whose out-sets would take the item past 400 KB
   * is counted without them (the entries then go again on the next try), never not counted. And a
   * try of 400 addresses names more attributes than one update's 4 KB expression takes: it is
   * recorded in several (before, it failed on DynamoDB for any registration of more than about 200
   * tried addresses, and was never counted).
   */
  @Test
  void aTryWhoseOutSetsDoNotFitIsCountedWithoutThem(DynamoDbClient dynamoDb, TestTable table) {
    FunctionStore store = new DynamoDbFunctionStore(dynamoDb, table.name());
    OutboxKey key = new OutboxKey(0, 1_000_000, "bigoutsets");
    List<Address> addresses = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      addresses.add(Address.of(TypeName.of("test", "fn"), "a" + i));
    }
    store.registerOutboxes(key, addresses);
    Set<String> many = new java.util.HashSet<>();
    for (int i = 0; i < 400; i++) {
      many.add("e" + i + "-" + "x".repeat(2));
    }
    Map<Address, Set<String>> out = new LinkedHashMap<>();
    addresses.forEach(address -> out.put(address, many));
    store.outboxesTried(key, out, 2_000_000);

    for (Address address : addresses) {
      assertEquals(
          1, store.outboxPending(key, address).orElseThrow().attempts(), "the try is counted");
    }
    assertEquals(
        many, store.outboxPending(key, addresses.get(0)).orElseThrow().out(), "while they fit");
    assertEquals(
        Set.of(),
        store.outboxPending(key, addresses.get(399)).orElseThrow().out(),
        "400 sets of 400 entries take 2.8 MB: the last ones are left out");

    store.settleOutboxes(key, addresses.subList(0, 399));
    assertEquals(
        Set.of(addresses.get(399)),
        store.dueOutboxes(0, 1_000_000, Long.MAX_VALUE, 10).get(0).addresses(),
        "399 settled at once, in as many updates as their names take");
  }

  /**
   * Invariants 3 and 5 (nothing stuck, failures visible) on DynamoDB. A registration reserves half
   * an item for the tries' counts ({@code BatchProcessor.REGISTRATION_BYTES}); the out-sets of a
   * try ("o:" + hash) are kept "while they fit", but they fit into that same reserve. A try of more
   * than 60 addresses goes in chunks: the first chunk's out-sets fit and fill the room the later
   * chunks' counts need. The later chunk is refused with its out-sets, then refused again without
   * them (the counts alone no longer fit): {@code outboxesTried} throws, {@code
   * OutboxOutcomes.tried} swallows it, and those addresses' tries are never counted, on this try or
   * any later one (the first chunk succeeds every time with the same out-sets). Their outboxes are
   * never dead-lettered after maxAttempts and are retried forever.
   *
   * <p>Schedule: a batch of long addresses (as many as one registration takes, 79), each of whose
   * outboxes has ~480 egress records; one sink is down, the other delivered: every address's try is
   * recorded with an out-set of ~480 names.
   */
  @Test
  void everyAddressOfATryIsCountedWhenEarlierChunksOutSetsFillTheItem(
      DynamoDbClient dynamoDb, TestTable table) {
    FunctionStore store = new DynamoDbFunctionStore(dynamoDb, table.name());
    OutboxKey key = new OutboxKey(0, 1_000_000, "outsetsfill");
    List<Address> addresses = fullRegistration();
    store.registerOutboxes(key, addresses);

    // a = ~151 KB, the 60 counts of the first chunk ~115 KB, its 60 out-sets (480 entries, ~1.8
    // KB each) ~110 KB: ~376 KB, under 400 KB. The 19 counts of the second chunk add ~36 KB more.
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < 480; i++) {
      out.add("e" + i);
    }
    Map<Address, Set<String>> tried = new LinkedHashMap<>();
    addresses.forEach(address -> tried.put(address, out));
    // Two tries, as two sweeps make them; OutboxOutcomes.tried swallows what the store throws.
    String refused = "nothing";
    for (int tryNo = 1; tryNo <= 2; tryNo++) {
      try {
        store.outboxesTried(key, tried, 2_000_000L * tryNo);
      } catch (StoreException e) {
        refused = e.getMessage();
      }
    }

    Address last = addresses.get(addresses.size() - 1);
    assertEquals(
        2,
        store.outboxPending(key, addresses.get(0)).orElseThrow().attempts(),
        "the first chunk's tries are counted");
    assertEquals(
        2,
        store.outboxPending(key, last).orElseThrow().attempts(),
        "the tries of an address of the second chunk are counted (else it is never"
            + " dead-lettered); the store refused: "
            + refused);
  }

  /** What BatchProcessor.outboxKeys puts under one key: long addresses up to 150 KB (each + 16). */
  private static List<Address> fullRegistration() {
    List<Address> addresses = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; ; i++) {
      String id = String.format("%04d", i) + "x".repeat(1_900);
      Address address = Address.of(TypeName.of("test", "fn"), id);
      long size = address.toString().getBytes(StandardCharsets.UTF_8).length + 16L;
      if (bytes + size > 150 * 1024) {
        return addresses;
      }
      addresses.add(address);
      bytes += size;
    }
  }
}
