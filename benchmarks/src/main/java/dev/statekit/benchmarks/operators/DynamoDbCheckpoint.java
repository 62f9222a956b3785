package dev.statekit.benchmarks.operators;

import dev.statekit.aws.ApplicationTable;
import dev.statekit.benchmarks.Result;
import dev.statekit.stream.state.dynamodb.DynamoDbStateTable;
import dev.statekit.testservers.AwsClients;
import java.io.PrintStream;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A checkpoint of the DynamoDB backend when 1,000 keys changed, against the embedded DynamoDB
 * server, with requests and capacity counted from the responses. The state written before it has
 * {@code statekit.dynamodb.keys} keys (default 100,000: writing a million items into the emulator
 * first takes minutes, and by-reference checkpoints don't read or write unchanged keys).
 */
final class DynamoDbCheckpoint {
  private DynamoDbCheckpoint() {}

  static Result measure(PrintStream log, String suite) {
    int keys = Integer.getInteger("statekit.dynamodb.keys", 100_000);
    RequestCounter counter = new RequestCounter();
    try (DynamoDbClient dynamoDb = AwsClients.dynamoDb(counter)) {
      String table = "bench-" + UUID.randomUUID().toString().substring(0, 8);
      ApplicationTable.createIfAbsent(dynamoDb, table);
      ReduceState state =
          new ReduceState(DynamoDbStateTable.backend(dynamoDb, table, Integer.MAX_VALUE), "bench");
      state.add(0, keys, 1, 1);
      counter.reset();
      double first = state.checkpoint();
      long firstRequests = counter.requests.get();
      state.add(0, keys, keys / 1000, 1);
      counter.reset();
      double incremental = state.checkpoint();
      log.printf(
          "DynamoDB backend: first checkpoint of %d keys %.0f ms in %d requests;"
              + " checkpoint of 1,000 changed keys %.1f ms, %d requests, %.1f WCU%n",
          keys,
          first,
          firstRequests,
          incremental,
          counter.requests.get(),
          counter.writeUnits.sum());
      return Result.of(suite, "checkpoint-dynamodb")
          .with("keys", keys)
          .with("changed_keys", 1000)
          .with("checkpoint_ms", incremental)
          .with("requests", counter.requests.get())
          .with("wcu", counter.writeUnits.sum())
          .with("rcu", counter.readUnits.sum())
          .with("first_checkpoint_ms", first)
          .with("first_checkpoint_requests", firstRequests);
    }
  }
}
