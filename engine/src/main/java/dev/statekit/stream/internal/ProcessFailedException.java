package dev.statekit.stream.internal;

import dev.statekit.stream.Record;

/** A process function failed and its policy is to fail the pipeline. */
final class ProcessFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  ProcessFailedException(String operator, Record<?> record, Throwable cause) {
    super("Operator '" + operator + "' failed on " + record + ": " + cause, cause);
  }
}
