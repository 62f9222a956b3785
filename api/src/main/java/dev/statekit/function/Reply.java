package dev.statekit.function;

import dev.statekit.types.TypeName;

/**
 * The answer to a request-reply call is an egress record to {@link #EGRESS} ({@code
 * statekit/reply}), sent like any other egress record, so a function written for Apache Flink
 * StateFun needs no StateKit API to answer:
 *
 * <pre>{@code
 * context.send(EgressMessageBuilder.forEgress(Reply.EGRESS).withValue(cart, CART_TYPE).build());
 * // or, without StateKit's API: EgressMessageBuilder.forEgress(TypeName.parse("statekit/reply"))
 * }</pre>
 *
 * <p>On StateKit's runtime, when the invocation runs for a call ({@code "call": true} in the
 * envelope, or an HTTP request to {@code /call/<namespace>/<type>/<id>}), the record is the call's
 * reply: it is committed with the invocation's state (kept with the call's idempotency key, so a
 * retried call gets the same reply) and returned to the caller; it goes to no egress sink. If one
 * invocation sends several, the last one is the reply. For an invocation that carries no call (a
 * message from another function, a delayed message, a plain envelope) the record is dropped.
 *
 * <p>Served to a Flink StateFun cluster through StateKit's endpoint, the record is dropped before
 * the answer is written (StateFun has no caller to hand it to), so the cluster never sees an egress
 * it does not declare. A function run by another StateFun SDK sends it to StateFun, which needs an
 * egress of that name declared.
 */
public final class Reply {
  /** The reserved egress whose record answers a call: {@code statekit/reply}. */
  public static final TypeName EGRESS = TypeName.of("statekit", "reply");

  private Reply() {}

  /** Whether {@code egress} is {@link #EGRESS}. */
  public static boolean isReply(TypeName egress) {
    return egress.namespace().equals("statekit") && egress.name().equals("reply");
  }
}
