package dev.statekit.benchmarks.protocol;

import java.util.function.ToIntFunction;
import org.apache.flink.statefun.sdk.java.slice.Slices;

/** One side of the comparison: a handler that answers request bytes, and how it is called. */
enum Side {
  STATEKIT("statekit") {
    @Override
    ToIntFunction<byte[]> handler() {
      dev.statekit.protocol.RequestReplyHandler handler = GreeterShapes.statekit();
      return request -> handler.invoke(request).length;
    }
  },
  SDK("sdk") {
    // The SDK's answer is left as the Slice it returns, which a transport writes as it is.
    @Override
    ToIntFunction<byte[]> handler() {
      org.apache.flink.statefun.sdk.java.handler.RequestReplyHandler handler = GreeterShapes.sdk();
      return request -> handler.handle(Slices.wrap(request)).join().readableBytes();
    }
  };

  final String label;

  Side(String label) {
    this.label = label;
  }

  /**
   * A fresh handler of this side; the answer's length is what the caller sinks, so neither side's
   * work can be optimised away.
   */
  abstract ToIntFunction<byte[]> handler();

  static Side named(String label) {
    for (Side side : values()) {
      if (side.label.equals(label)) {
        return side;
      }
    }
    throw new IllegalArgumentException("side is statekit or sdk: " + label);
  }
}
