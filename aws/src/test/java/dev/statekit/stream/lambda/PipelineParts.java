package dev.statekit.stream.lambda;

import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import dev.statekit.stream.lambda.dynamodb.DynamoDbBatchStore;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a pipeline contract runs on: the store under test, the results table written by id, and what
 * that table holds (each record's text by id, of every test of the class), read afresh.
 */
interface PipelineParts {
  BatchStore store();

  EgressSink results();

  Map<String, String> stored();

  /** The in-memory store, results in a map written by id like a table (sinks may run at once). */
  static PipelineParts inMemory() {
    BatchStore store = new InMemoryBatchStore();
    Map<String, String> table = new TreeMap<>();
    EgressSink sink =
        (List<EgressRecord> records) -> {
          synchronized (table) {
            records.forEach(r -> table.put(r.id(), r.text().orElseThrow()));
          }
        };
    return new PipelineParts() {
      @Override
      public BatchStore store() {
        return store;
      }

      @Override
      public EgressSink results() {
        return sink;
      }

      @Override
      public Map<String, String> stored() {
        synchronized (table) {
          return new TreeMap<>(table);
        }
      }
    };
  }

  /** One DynamoDB table for the store and the results, the results of {@code egressType} read. */
  static PipelineParts onTable(DynamoDbClient dynamoDb, String table, String egressType) {
    // One sink object: outputs of one egress (late records beside the results) share their sink.
    EgressSink sink = DynamoDbTableSink.onApplicationTable(dynamoDb, table);
    return new PipelineParts() {
      @Override
      public BatchStore store() {
        return new DynamoDbBatchStore(dynamoDb, table);
      }

      @Override
      public EgressSink results() {
        return sink;
      }

      @Override
      public Map<String, String> stored() {
        return StoredResults.texts(dynamoDb, table, egressType);
      }
    };
  }
}
