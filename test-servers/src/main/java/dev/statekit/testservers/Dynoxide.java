package dev.statekit.testservers;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Dynoxide, a DynamoDB-compatible server shipped as a static binary in an npm package. */
final class Dynoxide {
  static final String HINT =
      "Or set STATEKIT_DYNAMODB_ENDPOINT to a running DynamoDB-compatible endpoint"
          + " (LocalStack: http://localhost:4566; real AWS: https://dynamodb.<region>.amazonaws.com).";

  private Dynoxide() {}

  static URI start() {
    String version = System.getProperty("statekit.dynoxide.version", "1.2.1");
    Path servers = ServersDirectory.resolve();
    String packageName = "@dynoxide/" + platform();
    Path packageDir =
        new NpmPackage(packageName, version, servers.resolve("dynoxide-" + version))
            .install("The DynamoDB test server (Dynoxide)", HINT);
    Path binary = packageDir.resolve(isWindows() ? "dynoxide.exe" : "dynoxide");
    if (!Files.isExecutable(binary)) {
      throw new ServerUnavailableException(
          packageName + "@" + version + " holds no executable " + binary + ". " + HINT);
    }
    return ServerProcess.start(
            "dynoxide",
            port ->
                List.of(
                    binary.toString(),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    String.valueOf(port)),
            servers,
            HINT)
        .endpoint();
  }

  /** The npm platform package's suffix, as Node.js names platforms and architectures. */
  static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String nodeOs =
        os.contains("linux")
            ? "linux"
            : os.contains("mac") || os.contains("darwin")
                ? "darwin"
                : os.contains("windows") ? "win32" : os;
    String nodeArch =
        switch (arch) {
          case "amd64", "x86_64" -> "x64";
          case "aarch64", "arm64" -> "arm64";
          default -> arch;
        };
    return nodeOs + "-" + nodeArch;
  }

  private static boolean isWindows() {
    return System.getProperty("os.name").startsWith("Windows");
  }
}
