package dev.statekit.stream.state;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.stream.state.dynamodb.DynamoDbCheckpointStore;
import dev.statekit.testservers.AwsClients;
import dev.statekit.testservers.RealServers;
import dev.statekit.testservers.TestTable;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link DynamoDbCheckpointStore} on Dynoxide when the answer to the write completing a checkpoint
 * is lost after Dynoxide applied it (DynamoDB documents that after a 500 InternalServerError the
 * write may or may not have been applied) and the SDK's own retry sends it again. Dynoxide never
 * loses an answer, so an {@link ExecutionInterceptor} on the SDK client turns its answer to the
 * completing write into a 500 once, after Dynoxide applied it.
 */
@ExtendWith(RealServers.class)
class DynamoDbCheckpointLostAnswerIT {
  private final String pipeline = "p" + UUID.randomUUID().toString().substring(0, 8);

  /**
   * The SDK's retry of a completing write that was applied meets that write, and passes: the
   * condition was "latest < :id", so the store reported checkpoint 1 older than the complete one
   * (checkpoint 1 itself) and the threaded pipeline failed.
   */
  @Test
  void aCompleteWhoseAnswerWasLostIsNotReportedAsAConflictWithItself(TestTable table) {
    AtomicBoolean armed = new AtomicBoolean(false);
    AtomicInteger completes = new AtomicInteger();
    ExecutionInterceptor losing =
        new ExecutionInterceptor() {
          private final AtomicBoolean lost = new AtomicBoolean(false);

          @Override
          public SdkHttpResponse modifyHttpResponse(
              Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            if (context.request() instanceof UpdateItemRequest update
                && update.updateExpression() != null
                && update.updateExpression().startsWith("SET latest")) {
              completes.incrementAndGet();
              if (armed.compareAndSet(true, false)) {
                // Dynoxide applied the write; its answer becomes DynamoDB's 500.
                lost.set(true);
                return context.httpResponse().toBuilder().statusCode(500).build();
              }
            }
            return context.httpResponse();
          }

          @Override
          public Optional<InputStream> modifyHttpResponseContent(
              Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
            if (lost.compareAndSet(true, false)) {
              return Optional.of(
                  new ByteArrayInputStream(
                      ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\","
                              + "\"message\":\"Internal server error (simulated, the write was"
                              + " applied)\"}")
                          .getBytes(StandardCharsets.UTF_8)));
            }
            return context.responseBody();
          }
        };
    DynamoDbClient dynamoDb = AwsClients.dynamoDb(losing);
    CheckpointStore store = new DynamoDbCheckpointStore(dynamoDb, table.name());
    long id = store.begin(pipeline);
    store.writePart(pipeline, id, "source", new byte[] {1, 2, 3});
    CheckpointManifest manifest =
        new CheckpointManifest(
            id,
            Map.of("shard-1", "49"),
            1000,
            Set.of("source"),
            new CheckpointLineage(id, List.of(new long[] {0, 0})));

    armed.set(true);
    assertDoesNotThrow(
        () -> store.complete(pipeline, manifest), "checkpoint " + id + " is complete");

    assertTrue(completes.get() >= 2, "the SDK sent the completing write again");
    assertEquals(id, store.latest(pipeline).orElseThrow().manifest().id());
  }
}
