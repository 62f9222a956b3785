package dev.statekit.aws.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Measures what AWS calls cost: an SDK {@link ExecutionInterceptor} that counts requests per
 * service and operation, DynamoDB read and write capacity units as the responses report them, and
 * sequential round trips. Add it to every client whose calls should count:
 *
 * <pre>{@code
 * CostMeter meter = new CostMeter();
 * DynamoDbClient dynamoDb = DynamoDbClient.builder()
 *     .overrideConfiguration(c -> c.addExecutionInterceptor(meter)) ... .build();
 * }</pre>
 *
 * <p>It asks DynamoDB for {@code ReturnConsumedCapacity=TOTAL} on every request that does not ask
 * already, so capacity is what DynamoDB reports, never an estimate. PartiQL requests ({@code
 * ExecuteStatement}, {@code BatchExecuteStatement}) count as writes: StateKit sends only writes
 * through them. A conditional write that fails reports no capacity (DynamoDB still bills it); the
 * {@code failed} count says how many there were.
 *
 * <p>Round trips: the longest chain of calls that ran one after another, each begun after the
 * previous one's answer was in: the calls a batch's latency adds up. A call lasts from the SDK
 * method's start to its result, so client-side work (marshalling, signing, retries) counts within
 * it; calls in flight together count once. Thread-safe; {@link #reset} between measurements.
 */
public final class CostMeter implements ExecutionInterceptor {
  private static final ExecutionAttribute<Long> STARTED =
      new ExecutionAttribute<>("statekit.cost-meter.started");
  private static final Set<String> READS =
      Set.of("GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems");

  private final Map<String, Long> requests = new TreeMap<>();
  private final List<long[]> calls = new ArrayList<>();
  private double readUnits;
  private double writeUnits;
  private long failed;

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    return withConsumedCapacity(context.request());
  }

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    attributes.putAttribute(STARTED, System.nanoTime());
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    synchronized (this) {
      requests.merge(operation(attributes), 1L, Long::sum);
    }
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    ended(attributes);
    double units = capacity(context.response());
    if (units == 0) {
      return;
    }
    boolean read = READS.contains(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    synchronized (this) {
      if (read) {
        readUnits += units;
      } else {
        writeUnits += units;
      }
    }
  }

  @Override
  public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
    ended(attributes);
    synchronized (this) {
      failed++;
    }
  }

  /** What was measured since the meter was made or last reset. */
  public synchronized Snapshot snapshot() {
    return new Snapshot(
        new TreeMap<>(requests), readUnits, writeUnits, longestChain(calls), failed);
  }

  /** Forgets everything measured so far. */
  public synchronized void reset() {
    requests.clear();
    calls.clear();
    readUnits = 0;
    writeUnits = 0;
    failed = 0;
  }

  /**
   * What a {@link CostMeter} measured.
   *
   * @param requests attempts sent, by {@code Service.Operation} (e.g. {@code DynamoDB.PutItem})
   * @param readCapacityUnits DynamoDB read capacity units the responses reported
   * @param writeCapacityUnits DynamoDB write capacity units the responses reported
   * @param roundTrips the longest chain of calls that ran one after another
   * @param failedRequests requests that ended in an error (after the SDK's retries)
   */
  public record Snapshot(
      Map<String, Long> requests,
      double readCapacityUnits,
      double writeCapacityUnits,
      int roundTrips,
      long failedRequests) {
    /** Copies the map. */
    public Snapshot {
      requests = Map.copyOf(requests);
    }

    /** Attempts sent to one service ({@code DynamoDB}, {@code SQS}, {@code Kinesis}). */
    public long requestsTo(String service) {
      return requests.entrySet().stream()
          .filter(e -> e.getKey().startsWith(service + "."))
          .mapToLong(Map.Entry::getValue)
          .sum();
    }
  }

  private void ended(ExecutionAttributes attributes) {
    Long started = attributes.getAttribute(STARTED);
    long ended = System.nanoTime();
    synchronized (this) {
      calls.add(new long[] {started == null ? ended : started, ended});
    }
  }

  private static String operation(ExecutionAttributes attributes) {
    return attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME)
        + "."
        + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
  }

  /**
   * Greedy by end time: the most calls that can be lined up, each begun after the previous ended.
   */
  private static int longestChain(List<long[]> intervals) {
    List<long[]> sorted = new ArrayList<>(intervals);
    sorted.sort(Comparator.comparingLong(interval -> interval[1]));
    int chain = 0;
    long lastEnd = Long.MIN_VALUE;
    for (long[] interval : sorted) {
      if (interval[0] > lastEnd) {
        chain++;
        lastEnd = interval[1];
      }
    }
    return chain;
  }

  /** The capacity units a DynamoDB response reports (0 for any other). */
  public static double capacity(SdkResponse response) {
    double units = 0;
    for (ConsumedCapacity capacity :
        response
            .getValueForField("ConsumedCapacity", Object.class)
            .map(CostMeter::capacities)
            .orElse(List.of())) {
      units += capacity.capacityUnits() == null ? 0 : capacity.capacityUnits();
    }
    return units;
  }

  private static List<ConsumedCapacity> capacities(Object field) {
    List<ConsumedCapacity> found = new ArrayList<>();
    if (field instanceof ConsumedCapacity) {
      found.add((ConsumedCapacity) field);
    } else if (field instanceof List) {
      for (Object element : (List<?>) field) {
        if (element instanceof ConsumedCapacity) {
          found.add((ConsumedCapacity) element);
        }
      }
    }
    return found;
  }

  /**
   * {@code request}, asking DynamoDB to report the capacity it consumes if it can and does not ask
   * already; any other request as it is.
   */
  public static SdkRequest withConsumedCapacity(SdkRequest request) {
    if (request.getValueForField("ReturnConsumedCapacity", Object.class).isPresent()) {
      return request;
    }
    UnaryOperator<SdkRequest> asking = ASK_FOR_CAPACITY.get(request.getClass());
    return asking == null ? request : asking.apply(request);
  }

  private static final ReturnConsumedCapacity TOTAL = ReturnConsumedCapacity.TOTAL;

  /** Every DynamoDB request that can report capacity, asked to. */
  private static final Map<Class<?>, UnaryOperator<SdkRequest>> ASK_FOR_CAPACITY =
      Map.ofEntries(
          Map.entry(
              ExecuteStatementRequest.class,
              r -> ((ExecuteStatementRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              BatchExecuteStatementRequest.class,
              r ->
                  ((BatchExecuteStatementRequest) r)
                      .toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              PutItemRequest.class,
              r -> ((PutItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              UpdateItemRequest.class,
              r -> ((UpdateItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              DeleteItemRequest.class,
              r -> ((DeleteItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              GetItemRequest.class,
              r -> ((GetItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              BatchGetItemRequest.class,
              r -> ((BatchGetItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              BatchWriteItemRequest.class,
              r -> ((BatchWriteItemRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              TransactWriteItemsRequest.class,
              r ->
                  ((TransactWriteItemsRequest) r)
                      .toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              TransactGetItemsRequest.class,
              r -> ((TransactGetItemsRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              QueryRequest.class,
              r -> ((QueryRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()),
          Map.entry(
              ScanRequest.class,
              r -> ((ScanRequest) r).toBuilder().returnConsumedCapacity(TOTAL).build()));
}
