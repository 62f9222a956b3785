package dev.statekit.entry.internal;

/**
 * The bounds the entry point holds events to: each one at least what its AWS source may send, so
 * that only an event no source could have sent is refused (the README's "Limits" lists them with
 * the error each gives).
 */
public final class EventLimits {
  /** Records in one event: Lambda's largest batch for SQS, Kinesis and DynamoDB Streams. */
  public static final int MAX_RECORDS = 10_000;

  /** An SQS message id (a UUID) or a DynamoDB Streams event id. */
  static final int MAX_ID_LENGTH = 128;

  /** A FIFO message group id, as SQS bounds it. */
  static final int MAX_GROUP_ID_LENGTH = 128;

  /** An SQS FIFO sequence number: 128 bits, at most 39 decimal digits. */
  static final int MAX_SQS_SEQUENCE_DIGITS = 39;

  /** The largest 128-bit number, which no SQS sequence number passes. */
  static final String MAX_SQS_SEQUENCE = "340282366920938463463374607431768211455";

  /** A Kinesis sequence number, as the Kinesis API bounds it. */
  static final int MAX_KINESIS_SEQUENCE_DIGITS = 129;

  /** A DynamoDB Streams sequence number (21 to 40 digits). */
  static final int MAX_DYNAMODB_SEQUENCE_DIGITS = 40;

  /** A Kinesis partition key: 256 characters (code points, as Kinesis counts them). */
  static final int MAX_PARTITION_KEY_LENGTH = 256;

  /** A Kinesis shard id, as the Kinesis API bounds it. */
  static final int MAX_SHARD_ID_LENGTH = 128;

  /** The system attributes of an SQS message, and each one's length. */
  static final int MAX_ATTRIBUTES = 64;

  static final int MAX_ATTRIBUTE_LENGTH = 1024;

  /** How deep a DynamoDB item nests (DynamoDB allows 32 levels). */
  static final int MAX_ITEM_DEPTH = 32;

  /**
   * A DynamoDB number as text: 38 significant digits from 1E-130 to under 1E+126, which in plain
   * digits (as DynamoDB streams them) take up to 133 characters.
   */
  static final int MAX_NUMBER_LENGTH = 200;

  /** Resources of a scheduled event, and its id and time. */
  static final int MAX_RESOURCES = 16;

  static final int MAX_TIME_LENGTH = 64;

  private EventLimits() {}
}
