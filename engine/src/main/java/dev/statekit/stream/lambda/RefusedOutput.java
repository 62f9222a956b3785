package dev.statekit.stream.lambda;

import dev.statekit.types.Type;
import dev.statekit.types.TypeName;
import dev.statekit.types.Types;

/**
 * A pipeline result its sink refused for what the record holds (past the queue's or stream's size,
 * no destination), set aside so that the batch could go on: a {@link BatchPipeline} built with
 * {@link BatchPipeline.Builder#refusedOutputsTo refusedOutputsTo} delivers one of these there in
 * its place, as JSON ({@link #TYPE}), with the refused record's id.
 *
 * @param egress the egress of the refused record
 * @param id the refused record's id (the same on every delivery)
 * @param source the refused record's source address: the pipeline, and the result's key or split
 * @param key the record's key (partition key, message group), or null if it had none
 * @param typeName the type name of the record's value
 * @param bytes the length of the record's value
 * @param reason what the sink said, at most {@value #MAX_REASON_CHARS} characters
 * @param value the record's value if it is at most {@value #MAX_VALUE_BYTES} bytes, else null (a
 *     value too large for its sink would be too large here too: the pipeline computes it again from
 *     the same input)
 */
public record RefusedOutput(
    String egress,
    String id,
    String source,
    String key,
    String typeName,
    int bytes,
    String reason,
    byte[] value) {
  /** How refused outputs are written: JSON, the value in base64. */
  public static final Type<RefusedOutput> TYPE =
      Types.json(TypeName.of(EgressOutput.SOURCE_NAMESPACE, "refused-output"), RefusedOutput.class);

  /** The egress refused outputs are records of. */
  public static final TypeName EGRESS = TypeName.of(EgressOutput.SOURCE_NAMESPACE, "refused");

  /** The longest value a refused output carries: base64 of it fits an SQS message. */
  public static final int MAX_VALUE_BYTES = 64 * 1024;

  /** The longest reason a refused output carries. */
  public static final int MAX_REASON_CHARS = 2000;
}
