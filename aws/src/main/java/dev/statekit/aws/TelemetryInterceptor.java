package dev.statekit.aws;

import dev.statekit.aws.internal.CostMeter;
import dev.statekit.telemetry.Metric;
import dev.statekit.telemetry.Metrics;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Records what the SDK's calls cost into the current invocation's metrics: DynamoDB capacity units
 * as the responses report them (it asks for {@code ReturnConsumedCapacity=TOTAL}, which costs
 * nothing), attempts the SDK sent again, and attempts answered with a throttling error. Outside an
 * invocation the figures go nowhere.
 */
final class TelemetryInterceptor implements ExecutionInterceptor {
  static final TelemetryInterceptor INSTANCE = new TelemetryInterceptor();

  private static final ExecutionAttribute<int[]> ATTEMPTS =
      new ExecutionAttribute<>("statekit.telemetry.attempts");

  private TelemetryInterceptor() {}

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    // The SDK names the service "DynamoDb".
    return "DynamoDb".equalsIgnoreCase(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))
        ? CostMeter.withConsumedCapacity(context.request())
        : context.request();
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    int[] attempts = attributes.getAttribute(ATTEMPTS);
    if (attempts == null) {
      attributes.putAttribute(ATTEMPTS, new int[] {1});
    } else {
      attempts[0]++;
      Metrics.add(Metric.REQUEST_RETRIES, 1);
    }
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    int status = context.httpResponse().statusCode();
    if (status == 429 || (status == 400 && throttled(context))) {
      Metrics.add(Metric.THROTTLES, 1);
    }
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    double units = CostMeter.capacity(context.response());
    if (units > 0) {
      String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
      boolean read =
          operation != null
              && (operation.startsWith("Get")
                  || operation.startsWith("BatchGet")
                  || operation.equals("Query")
                  || operation.equals("Scan")
                  || operation.equals("TransactGetItems"));
      Metrics.add(read ? Metric.READ_CAPACITY : Metric.WRITE_CAPACITY, units);
    }
  }

  /** The JSON protocols (DynamoDB, Kinesis, SQS) name the error's type in a header. */
  private static boolean throttled(Context.AfterTransmission context) {
    Optional<String> type = context.httpResponse().firstMatchingHeader("x-amzn-ErrorType");
    if (type.isEmpty()) {
      return false;
    }
    String name = type.get().toLowerCase(Locale.ROOT);
    return name.contains("throttl")
        || name.contains("provisionedthroughputexceeded")
        || name.contains("requestlimitexceeded")
        || name.contains("limitexceeded");
  }
}
