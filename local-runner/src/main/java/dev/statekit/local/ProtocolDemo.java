package dev.statekit.local;

import dev.statekit.examples.greeter.ExampleFunctions;
import dev.statekit.protocol.RequestReplyHandler;
import java.io.PrintStream;

/** The example functions answering StateFun requests in process, as a runtime would send them. */
final class ProtocolDemo {
  private ProtocolDemo() {}

  /** Greets Ada twice and Grace once, then sets and cancels a reminder; prints every exchange. */
  static int run(PrintStream out) throws Exception {
    LoopbackRuntime runtime =
        new LoopbackRuntime(new RequestReplyHandler(ExampleFunctions.registry()), out);
    runtime.ingress("example", "greeter", "Ada", "hi");
    runtime.runUntilIdle();
    runtime.ingress("example", "greeter", "Ada", "hello again");
    runtime.ingress("example", "greeter", "Ada", "and again");
    runtime.ingress("example", "greeter", "Grace", "hi");
    runtime.runUntilIdle();
    runtime.ingress("example", "reminder", "r1", "set:60000:tea");
    runtime.ingress("example", "reminder", "r1", "cancel:tea");
    runtime.ingress("example", "reminder", "r1", "fire:tea");
    runtime.runUntilIdle();
    return runtime.requests();
  }
}
