package dev.statekit.runtime.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.statekit.function.EgressMessage;
import dev.statekit.runtime.internal.data.CallReply;
import java.util.Base64;

/**
 * A call's reply as the marks keep it: in the item as a {@link CallReply}, and in a spilled mark's
 * position (a string) as {@code "1"} and its bytes in base64, or {@code "0"} for "no reply sent".
 */
final class CallReplies {
  private CallReplies() {}

  /** What an applied call answered: {@code reply}, or none if the function sent none. */
  static CallReply of(EgressMessage reply, long appliedAtSeconds) {
    CallReply.Builder built = CallReply.newBuilder().setAppliedAtSeconds(appliedAtSeconds);
    if (reply != null) {
      built
          .setReplied(true)
          .setTypeName(reply.valueTypeName().asString())
          .setValue(ByteString.copyFrom(reply.rawValue()));
    }
    return built.build();
  }

  static String toPosition(CallReply reply) {
    return reply.getReplied()
        ? "1" + Base64.getEncoder().encodeToString(reply.toByteArray())
        : "0" + reply.getAppliedAtSeconds();
  }

  static CallReply fromPosition(String position, long fingerprint) {
    if (position.startsWith("1")) {
      try {
        return CallReply.parseFrom(Base64.getDecoder().decode(position.substring(1)));
      } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
        throw new IllegalStateException("A spilled call reply does not decode: " + e, e);
      }
    }
    long appliedAt = position.length() > 1 ? Long.parseLong(position.substring(1)) : 0;
    return CallReply.newBuilder()
        .setFingerprint(fingerprint)
        .setAppliedAtSeconds(appliedAt)
        .build();
  }
}
