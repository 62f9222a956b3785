package dev.statekit.aws.kinesis;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.statekit.aws.RetryPolicy;
import dev.statekit.aws.dynamodb.DynamoDbTableSink;
import dev.statekit.aws.sqs.SqsEgressSink;
import dev.statekit.bus.QueueIds;
import dev.statekit.egress.EgressException;
import dev.statekit.egress.EgressRecord;
import dev.statekit.egress.EgressSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;

/**
 * Puts records into Kinesis streams with PutRecords (up to 500 records and 5 MiB a request, as
 * Kinesis takes them): the stream a StateFun Kinesis record names, else the sink's default stream;
 * the record's partition key, else its source address; its explicit hash key if it has one. A
 * record over Kinesis's 1 MiB (data and partition key), or naming a stream Kinesis can never have
 * (a name outside 1 to 128 of {@code [a-zA-Z0-9_.-]}), is refused by id before anything is put.
 * Records Kinesis throttles are put again with backoff. Kinesis keeps repeats and the data carries
 * no record id, so a record delivered again after a crash between commit and delivery shows twice;
 * egresses whose readers must never see a repeat belong in a sink that writes by id ({@link
 * DynamoDbTableSink}, a FIFO {@link SqsEgressSink}).
 *
 * <p>Records of one partition key reach their shard in order, except when Kinesis refuses part of a
 * request (throttling): PutRecords writes the request's other entries, so a refused record put
 * again lands after a later record of its key that the same request held (Kinesis documents that
 * PutRecords does not guarantee order). Readers that need strict order per key go through a FIFO
 * {@link SqsEgressSink}.
 */
public final class KinesisEgressSink implements EgressSink {
  private static final int MAX_RECORDS = 500;
  private static final int MAX_PARTITION_KEY = 256;

  /** Kinesis's limit of one record, its data and partition key together. */
  static final int MAX_RECORD_BYTES = 1024 * 1024;

  /** Kinesis's limit of one PutRecords request, the data and partition keys of all its records. */
  static final int MAX_REQUEST_BYTES = 5 * 1024 * 1024;

  private final KinesisClient kinesis;
  private final String defaultStream;
  private final RetryPolicy retry;

  /**
   * Puts into the streams records name, else into {@code defaultStream} (a name or an ARN; {@code
   * null} to require every record to name its stream).
   */
  public KinesisEgressSink(KinesisClient kinesis, String defaultStream) {
    this(kinesis, defaultStream, RetryPolicy.defaults());
  }

  /** Like {@link #KinesisEgressSink(KinesisClient, String)}, retrying with {@code retry}. */
  public KinesisEgressSink(KinesisClient kinesis, String defaultStream, RetryPolicy retry) {
    this.kinesis = Objects.requireNonNull(kinesis, "kinesis");
    this.defaultStream = defaultStream;
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  @Override
  public void deliver(List<EgressRecord> records) {
    Map<String, List<EgressRecord>> byStream = new LinkedHashMap<>();
    Map<EgressRecord, Integer> sizes = new java.util.IdentityHashMap<>();
    for (EgressRecord record : records) {
      sizes.put(record, checked(record));
      byStream.computeIfAbsent(stream(record), s -> new ArrayList<>()).add(record);
    }
    // A failure names what was written all the same (PutRecords writes the entries it does not
    // refuse), so that only the rest is delivered again.
    List<String> written = new ArrayList<>();
    try {
      byStream.forEach(
          (stream, streamRecords) -> {
            int from = 0;
            while (from < streamRecords.size()) {
              int to = from;
              long bytes = 0;
              while (to < streamRecords.size()
                  && to - from < MAX_RECORDS
                  && bytes + sizes.get(streamRecords.get(to)) <= MAX_REQUEST_BYTES) {
                bytes += sizes.get(streamRecords.get(to));
                to++;
              }
              put(stream, streamRecords.subList(from, to), written);
              from = to;
            }
          });
    } catch (EgressException e) {
      throw e.delivered(written);
    }
  }

  /**
   * Refuses a record past Kinesis's size; one that names no stream when the sink has none fails as
   * the sink's configuration, naming no record to set aside.
   */
  @Override
  public void check(EgressRecord record) {
    checked(record);
  }

  private int checked(EgressRecord record) {
    String stream = stream(record);
    if (stream == null || stream.isBlank()) {
      // The sink's configuration as much as the record's (a pipeline's records name none): not a
      // record to set aside while the others go on.
      throw new EgressException(
          EgressException.Reason.INVALID_REQUEST,
          "Egress record "
              + record.id()
              + " names no Kinesis stream and the sink has none by default; build it with"
              + " withStream(...) or give the sink a default stream",
          null);
    }
    if (record.destination().isPresent() && !isStream(stream)) {
      // The record names it (a StateFun Kinesis record's stream): no stream of that name can ever
      // exist, and Kinesis refuses the whole request for it.
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " names the stream '"
              + (stream.length() <= 140 ? stream : stream.substring(0, 140) + "...")
              + "', which Kinesis refuses: a stream name is 1 to 128 letters, digits, '_', '.'"
              + " and '-', an ARN arn:<partition>:kinesis:<region>:<account>:stream/<name>");
    }
    String hashKey = record.explicitHashKey().filter(k -> !k.isEmpty()).orElse(null);
    if (hashKey != null && !isHashKey(hashKey)) {
      // Kinesis refuses the whole request for it, and every record beside it with it.
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " has the explicit hash key '"
              + (hashKey.length() <= 60 ? hashKey : hashKey.substring(0, 60) + "...")
              + "', which Kinesis refuses: it takes a decimal number from 0 to 2^128 - 1");
    }
    int bytes = record.value().length + partitionKey(record).getBytes(UTF_8).length;
    if (bytes > MAX_RECORD_BYTES) {
      throw EgressException.refusing(
          record.id(),
          "Egress record "
              + record.id()
              + " takes "
              + bytes
              + " bytes with its partition key, more than Kinesis's "
              + MAX_RECORD_BYTES
              + " a record; send large data elsewhere (e.g. S3) and a reference through the"
              + " egress");
    }
    return bytes;
  }

  /** A decimal number from 0 to 2^128 - 1 without leading zeros, as PutRecords takes. */
  private static boolean isHashKey(String key) {
    if (!HASH_KEY.matcher(key).matches()) {
      return false;
    }
    return new java.math.BigInteger(key).bitLength() <= 128;
  }

  /** A stream name or ARN as PutRecords takes it (its StreamName and StreamARN patterns). */
  private static boolean isStream(String stream) {
    return stream.startsWith("arn:")
        ? stream.length() <= 2048 && STREAM_ARN.matcher(stream).matches()
        : STREAM_NAME.matcher(stream).matches();
  }

  private static final java.util.regex.Pattern STREAM_NAME =
      java.util.regex.Pattern.compile("[a-zA-Z0-9_.-]{1,128}");

  private static final java.util.regex.Pattern STREAM_ARN =
      java.util.regex.Pattern.compile("arn:aws.*:kinesis:.*:\\d{12}:stream/\\S+");

  private static final java.util.regex.Pattern HASH_KEY =
      java.util.regex.Pattern.compile("0|[1-9][0-9]{0,38}");

  private String stream(EgressRecord record) {
    return record.destination().orElse(defaultStream);
  }

  @Override
  public String toString() {
    return "KinesisEgressSink["
        + (defaultStream == null ? "streams records name" : defaultStream)
        + "]";
  }

  private void put(String stream, List<EgressRecord> records, List<String> written) {
    List<PutRecordsRequestEntry> pending = new ArrayList<>();
    List<EgressRecord> pendingRecords = new ArrayList<>(records);
    for (EgressRecord record : records) {
      PutRecordsRequestEntry.Builder entry =
          PutRecordsRequestEntry.builder()
              .data(SdkBytes.fromByteArrayUnsafe(record.value()))
              .partitionKey(partitionKey(record));
      record.explicitHashKey().filter(k -> !k.isEmpty()).ifPresent(entry::explicitHashKey);
      pending.add(entry.build());
    }
    String lastError = "";
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      List<PutRecordsRequestEntry> request = pending;
      PutRecordsResponse response;
      try {
        response =
            retry.call(
                () ->
                    kinesis.putRecords(
                        b -> {
                          if (stream.startsWith("arn:")) {
                            b.streamARN(stream);
                          } else {
                            b.streamName(stream);
                          }
                          b.records(request);
                        }));
      } catch (SdkException e) {
        throw new EgressException(
            RetryPolicy.reasonOf(e),
            "Kinesis did not take "
                + request.size()
                + " records for "
                + stream
                + ": "
                + e.getMessage(),
            e);
      }
      List<PutRecordsRequestEntry> failed = new ArrayList<>();
      List<EgressRecord> failedRecords = new ArrayList<>();
      List<PutRecordsResultEntry> results = response.records();
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i).errorCode() != null) {
          failed.add(request.get(i));
          failedRecords.add(pendingRecords.get(i));
          lastError = results.get(i).errorCode() + ": " + results.get(i).errorMessage();
        } else {
          written.add(pendingRecords.get(i).id());
        }
      }
      pending = failed;
      pendingRecords = failedRecords;
      if (!pending.isEmpty()) {
        if (attempt >= retry.maxAttempts()) {
          throw new EgressException(
              "Kinesis kept refusing "
                  + pending.size()
                  + " records for "
                  + stream
                  + ": "
                  + lastError,
              null);
        }
        retry.pause(attempt);
      }
    }
  }

  private static String partitionKey(EgressRecord record) {
    String key = record.key().filter(k -> !k.isEmpty()).orElse(record.source().toString());
    return key.length() <= MAX_PARTITION_KEY ? key : QueueIds.sha256(key);
  }
}
