package dev.statekit.stream.lambda;

import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;

/**
 * A pipeline result refused for what it holds, set aside so that the batch could go on: a {@link
 * BatchPipeline} built with {@link BatchPipeline.Builder#refusedOutputsTo refusedOutputsTo}
 * delivers these there in its place, as JSON ({@link #TYPE}). A result its sink refused (past the
 * queue's or stream's size) comes whole, its value cut into parts of at most {@value
 * #MAX_VALUE_BYTES} bytes, one record each (the record ids {@code <id>} for a single part, {@code
 * <id>#part<n>} otherwise): join the parts of one {@link #id()} in the order of {@link #part()}.
 * Results of a shard's record too large for their key's item to keep beside its state until they
 * are delivered come as one, without a value ({@link #parts()} 0), under the first result's id,
 * {@link #bytes()} their total: nothing the batch writes can hold them; the reason names the record
 * that made them, which the stream keeps for its retention.
 *
 * @param egress the egress of the refused record
 * @param id the refused record's id (the same on every delivery)
 * @param source the refused record's source address: the pipeline, and the result's key or split
 * @param key the record's key (partition key, message group), or null if it had none; at most
 *     {@value #MAX_KEY_CHARS} characters
 * @param typeName the type name of the record's value
 * @param bytes the length of the record's value (of all the record's results, for a stand-in of
 *     several)
 * @param reason why it was refused, at most {@value #MAX_REASON_CHARS} characters
 * @param part which part of the value this is, from 1
 * @param parts how many parts the value was cut into; 0 if it was not kept
 * @param value this part of the value (empty for an empty value, null if it was not kept)
 */
public record RefusedOutput(
    String egress,
    String id,
    String source,
    String key,
    String typeName,
    int bytes,
    String reason,
    int part,
    int parts,
    byte[] value) {
  /** How refused outputs are written: JSON, the value in base64. */
  public static final Type<RefusedOutput> TYPE =
      Types.json(TypeName.of(EgressOutput.SOURCE_NAMESPACE, "refused-output"), RefusedOutput.class);

  /** The egress refused outputs are records of. */
  public static final TypeName EGRESS = TypeName.of(EgressOutput.SOURCE_NAMESPACE, "refused");

  /**
   * The most bytes of the value one part carries: with its base64 and the other fields, a part fits
   * an SQS message, a Kinesis record and a DynamoDB item.
   */
  public static final int MAX_VALUE_BYTES = 64 * 1024;

  /** The longest reason a refused output carries. */
  public static final int MAX_REASON_CHARS = 2000;

  /** The longest record key a refused output carries (a longer one is cut). */
  public static final int MAX_KEY_CHARS = 1024;
}
