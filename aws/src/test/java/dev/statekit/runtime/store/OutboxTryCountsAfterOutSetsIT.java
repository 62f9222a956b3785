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
 * Invariants 3 and 5 (nothing stuck, failures visible) on DynamoDB. A registration reserves half an
 * item for the tries' counts ({@code BatchProcessor.REGISTRATION_BYTES}); the out-sets of a try
 * ("o:" + hash) are kept "while they fit", but they fit into that same reserve. A try of more than
 * 60 addresses goes in chunks: the first chunk's out-sets fit and fill the room the later chunks'
 * counts need. The later chunk is refused with its out-sets, then refused again without them (the
 * counts alone no longer fit): {@code outboxesTried} throws, {@code OutboxOutcomes.tried} swallows
 * it, and those addresses' tries are never counted, on this try or any later one (the first chunk
 * succeeds every time with the same out-sets). Their outboxes are never dead-lettered after
 * maxAttempts and are retried forever.
 *
 * <p>Schedule: a batch of long addresses (as many as one registration takes, 79), each of whose
 * outboxes has ~480 egress records; one sink is down, the other delivered: every address's try is
 * recorded with an out-set of ~480 names.
 */
@ExtendWith(RealServers.class)
class OutboxTryCountsAfterOutSetsIT {
  @Test
  void everyAddressOfATryIsCountedWhenEarlierChunksOutSetsFillTheItem(
      DynamoDbClient dynamoDb, TestTable table) {
    FunctionStore store = new DynamoDbFunctionStore(dynamoDb, table.name());
    OutboxKey key = new OutboxKey(0, 1_000_000, "outsetsfill");
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
}
