package dev.statekit.benchmarks.operators;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Counts DynamoDB requests and the capacity units the service reports for them (the adapters ask
 * for {@code ReturnConsumedCapacity.TOTAL}).
 */
final class RequestCounter implements ExecutionInterceptor {
  final AtomicLong requests = new AtomicLong();
  final DoubleAdder readUnits = new DoubleAdder();
  final DoubleAdder writeUnits = new DoubleAdder();

  void reset() {
    requests.set(0);
    readUnits.reset();
    writeUnits.reset();
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    requests.incrementAndGet();
    SdkResponse response = context.response();
    if (response instanceof BatchWriteItemResponse r) {
      add(r.consumedCapacity(), writeUnits);
    } else if (response instanceof UpdateItemResponse r) {
      add(List.of(r.consumedCapacity()), writeUnits);
    } else if (response instanceof BatchGetItemResponse r) {
      add(r.consumedCapacity(), readUnits);
    } else if (response instanceof GetItemResponse r) {
      add(List.of(r.consumedCapacity()), readUnits);
    } else if (response instanceof QueryResponse r) {
      add(List.of(r.consumedCapacity()), readUnits);
    }
  }

  private static void add(List<ConsumedCapacity> capacities, DoubleAdder units) {
    for (ConsumedCapacity c : capacities) {
      if (c != null && c.capacityUnits() != null) {
        units.add(c.capacityUnits());
      }
    }
  }
}
