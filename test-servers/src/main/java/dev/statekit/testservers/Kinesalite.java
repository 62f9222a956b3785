package dev.statekit.testservers;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/** kinesalite, a Kinesis-compatible server on Node.js, in memory. */
final class Kinesalite {
  static final String HINT =
      "Or set STATEKIT_KINESIS_ENDPOINT to a running Kinesis-compatible endpoint"
          + " (LocalStack: http://localhost:4566).";

  private Kinesalite() {}

  static URI start() {
    String version = System.getProperty("statekit.kinesalite.version", "3.3.3");
    Path servers = ServersDirectory.resolve();
    Path packageDir =
        new NpmPackage("kinesalite", version, servers.resolve("kinesalite-" + version))
            .install("The Kinesis test server (kinesalite)", HINT);
    String cli = packageDir.resolve("cli.js").toString();
    return ServerProcess.start(
            "kinesalite",
            // Short create/delete delays: the real service takes seconds, tests should not.
            port ->
                List.of(
                    "node",
                    cli,
                    "--port",
                    String.valueOf(port),
                    "--createStreamMs",
                    "5",
                    "--deleteStreamMs",
                    "5",
                    "--updateStreamMs",
                    "5",
                    "--shardLimit",
                    "100"),
            servers,
            "kinesalite needs Node.js (`node` on the PATH). " + HINT)
        .endpoint();
  }
}
