package dev.statekit.stream.internal;

import dev.statekit.stream.Record;

/**
 * A user function failed on a record and the pipeline fails: a map, filter or flatMap (decode and
 * encode too), or a process function whose policy is to fail. Names the operator and the record.
 */
final class OperatorFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  OperatorFailedException(String operator, Record<?> record, Throwable cause) {
    super("Operator '" + operator + "' failed on " + record + ": " + cause, cause);
  }
}
