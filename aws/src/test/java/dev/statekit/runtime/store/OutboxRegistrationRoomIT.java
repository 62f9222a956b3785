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
    // What BatchProcessor.outboxKeys puts under one key: addresses up to 150 KB (each + 16).
    List<Address> addresses = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; ; i++) {
      String id = String.format("%04d", i) + "x".repeat(1_900);
      Address address = Address.of(TypeName.of("test", "fn"), id);
      long size = address.toString().getBytes(StandardCharsets.UTF_8).length + 16L;
      if (bytes + size > 150 * 1024) {
        break;
      }
      addresses.add(address);
      bytes += size;
    }
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
}
