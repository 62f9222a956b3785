package dev.statekit.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.statekit.local.template.FunctionDef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A serve on 127.0.0.1 of one function, AppFunction (also behind the URL), counting its runs. */
final class CountingServe implements AutoCloseable {
  final AtomicInteger invoked = new AtomicInteger();
  final LocalLambdaServer server;

  CountingServe() throws IOException {
    RequestStreamHandler counting =
        (in, out, context) -> {
          invoked.incrementAndGet();
          out.write("{}".getBytes(StandardCharsets.UTF_8));
        };
    LocalFunction function =
        new LocalFunction(
            new FunctionDef("AppFunction", "x.Count", Map.of(), List.of(), null, false, 512, 30),
            counting);
    server =
        LocalLambdaServer.start(
            "127.0.0.1",
            0,
            name -> name.equals("AppFunction") ? function : null,
            "AppFunction",
            new ControlApi(address -> "{}"),
            null);
  }

  @Override
  public void close() {
    server.close();
  }
}
