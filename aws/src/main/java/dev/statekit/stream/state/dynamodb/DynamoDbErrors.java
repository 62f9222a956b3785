package dev.statekit.stream.state.dynamodb;

import dev.statekit.StateKitException.Reason;
import dev.statekit.aws.RetryPolicy;
import dev.statekit.stream.state.StateStoreException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Translates the SDK's exceptions into {@link StateStoreException} at the adapter boundary. */
final class DynamoDbErrors {
  private DynamoDbErrors() {}

  static StateStoreException translate(String action, String table, SdkException e) {
    if (e instanceof ResourceNotFoundException) {
      return new StateStoreException(
          Reason.INVALID_REQUEST,
          "DynamoDB table '"
              + table
              + "' does not exist: create it (ApplicationTable.createIfAbsent or template.yaml)"
              + " before "
              + action,
          e);
    }
    if (e instanceof ProvisionedThroughputExceededException
        || e instanceof RequestLimitExceededException
        || (e instanceof AwsServiceException service && service.isThrottlingException())) {
      return new StateStoreException(
          Reason.UNAVAILABLE,
          "DynamoDB throttled " + action + " on table '" + table + "'; retry later",
          e);
    }
    if (e instanceof ConditionalCheckFailedException
        || (e instanceof TransactionCanceledException cancelled && lostToAWriter(cancelled))) {
      return new StateStoreException(
          Reason.CONFLICT,
          "Another writer changed the items of table '"
              + table
              + "' while "
              + action
              + "; read them again and retry",
          e);
    }
    // A transaction cancelled for throttling or a server error passes; one refused for what it
    // holds does not: neither is another writer's doing.
    return new StateStoreException(
        RetryPolicy.reasonOf(e),
        "DynamoDB failed " + action + " on table '" + table + "': " + e.getMessage(),
        e);
  }

  /**
   * True if a condition failed or another transaction was writing an item: reading again settles
   * it.
   */
  private static boolean lostToAWriter(TransactionCanceledException e) {
    for (CancellationReason reason : e.cancellationReasons()) {
      if ("ConditionalCheckFailed".equals(reason.code())
          || "TransactionConflict".equals(reason.code())) {
        return true;
      }
    }
    return false;
  }
}
