package dev.statekit.local;

import dev.statekit.testservers.ServerUnavailableException;
import java.net.ConnectException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * What a command that failed prints: one line saying what went wrong and what to do, not a stack
 * trace (run with {@code -Dstatekit.trace=true} for one).
 */
final class Failures implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    var err = command.getErr();
    err.println("statekit-local " + command.getCommandName() + ": " + explain(e));
    if (Boolean.getBoolean("statekit.trace")) {
      e.printStackTrace(err);
    }
    err.flush();
    return 1;
  }

  static String explain(Throwable e) {
    if (e instanceof ServerUnavailableException) {
      return e.getMessage();
    }
    if (e instanceof SdkClientException && causedBy(e, ConnectException.class)) {
      return "nothing answers at the endpoint ("
          + e.getMessage()
          + "). With --localstack, start LocalStack first (docker run -p 4566:4566"
          + " localstack/localstack) or leave the flag out to use the embedded servers; with a"
          + " STATEKIT_*_ENDPOINT variable, check what it points at.";
    }
    if (e instanceof SdkClientException
        && e.getMessage() != null
        && e.getMessage().contains("credentials")) {
      return e.getMessage()
          + " With --aws, configure credentials as for the AWS CLI (aws configure, AWS_PROFILE).";
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getName() : message;
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
