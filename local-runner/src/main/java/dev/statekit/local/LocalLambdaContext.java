package dev.statekit.local;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The Lambda context of one local invocation: its time left counts down from the function's {@code
 * Timeout}, so that the engine bounds its work by the same deadline it has on Lambda.
 */
final class LocalLambdaContext implements Context {
  private static final LambdaLogger LOGGER =
      new LambdaLogger() {
        @Override
        public void log(String message) {
          System.out.print(message);
        }

        @Override
        public void log(byte[] message) {
          log(new String(message, StandardCharsets.UTF_8));
        }
      };

  private final String function;
  private final int memoryMb;
  private final long deadlineNanos;
  private final String requestId = UUID.randomUUID().toString();

  LocalLambdaContext(String function, long memoryMb, long deadlineNanos) {
    this.function = function;
    this.memoryMb = (int) Math.min(Integer.MAX_VALUE, memoryMb);
    this.deadlineNanos = deadlineNanos;
  }

  @Override
  public String getAwsRequestId() {
    return requestId;
  }

  @Override
  public String getLogGroupName() {
    return "/aws/lambda/" + function;
  }

  @Override
  public String getLogStreamName() {
    return "local";
  }

  @Override
  public String getFunctionName() {
    return function;
  }

  @Override
  public String getFunctionVersion() {
    return "$LATEST";
  }

  @Override
  public String getInvokedFunctionArn() {
    return "arn:aws:lambda:local:000000000000:function:" + function;
  }

  @Override
  public CognitoIdentity getIdentity() {
    return null;
  }

  @Override
  public ClientContext getClientContext() {
    return null;
  }

  @Override
  public int getRemainingTimeInMillis() {
    long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
    return (int) Math.max(0, Math.min(Integer.MAX_VALUE, left));
  }

  @Override
  public int getMemoryLimitInMB() {
    return memoryMb;
  }

  @Override
  public LambdaLogger getLogger() {
    return LOGGER;
  }
}
