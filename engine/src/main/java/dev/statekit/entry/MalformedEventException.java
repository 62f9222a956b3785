package dev.statekit.entry;

import dev.statekit.StateKitException;

/**
 * An event of an accepted shape (SQS, Kinesis, DynamoDB Streams, scheduled) carries a field its
 * event source never sends: missing, of the wrong kind, or past a bound the source keeps (a
 * sequence number longer than the source makes, a time past the year 9999, more records than a
 * batch holds). The message names the field and the bound. Nothing was routed.
 */
public final class MalformedEventException extends StateKitException {
  private static final long serialVersionUID = 1L;

  /** With a message naming the field and what it must be. */
  public MalformedEventException(String message) {
    super(Reason.INVALID_REQUEST, message);
  }
}
