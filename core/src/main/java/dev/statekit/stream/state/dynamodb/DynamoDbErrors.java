package dev.statekit.stream.state.dynamodb;

import dev.statekit.stream.state.StateStoreException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/** Translates the SDK's exceptions into {@link StateStoreException} at the adapter boundary. */
final class DynamoDbErrors {
  private DynamoDbErrors() {}

  static StateStoreException translate(String action, String table, SdkException e) {
    if (e instanceof ResourceNotFoundException) {
      return new StateStoreException(
          "DynamoDB table '"
              + table
              + "' does not exist: create it (ApplicationTable.createIfAbsent or template.yaml)"
              + " before "
              + action,
          false,
          e);
    }
    if (e instanceof ProvisionedThroughputExceededException
        || e instanceof RequestLimitExceededException
        || (e instanceof DynamoDbException d && "ThrottlingException".equals(errorCode(d)))) {
      return new StateStoreException(
          "DynamoDB throttled " + action + " on table '" + table + "'; retry later", true, e);
    }
    boolean retryable =
        e instanceof SdkClientException
            || (e instanceof DynamoDbException d && d.statusCode() >= 500);
    return new StateStoreException(
        "DynamoDB failed " + action + " on table '" + table + "': " + e.getMessage(), retryable, e);
  }

  private static String errorCode(DynamoDbException e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }
}
