package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The runner's jar in a process of its own, as a user starts it, with no serve running. */
class FreshProcessIT {
  private static final Path JAR =
      Path.of("target", "statekit-local-runner.jar").toAbsolutePath().normalize();

  @Test
  void stateWithoutAServeRefusesInsteadOfShowingEmptyServers() throws Exception {
    Path directory = Files.createTempDirectory("no-serve");
    ProcessBuilder builder =
        new ProcessBuilder(java(), "-jar", JAR.toString(), "state", "shop/inventory/pen")
            .directory(directory.toFile())
            .redirectErrorStream(true);
    builder.environment().remove("STATEKIT_DYNAMODB_ENDPOINT");
    Process process = builder.start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "state did not answer within 60 s");
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(2, process.exitValue(), printed);
    assertTrue(printed.contains("no serve is running here"), printed);
    assertTrue(printed.contains("start `serve` in another terminal"), printed);
  }

  @Test
  void versionComesFromTheBuild() throws Exception {
    Process process =
        new ProcessBuilder(java(), "-jar", JAR.toString(), "--version")
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "--version did not answer within 60 s");
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(0, process.exitValue(), printed);
    assertEquals(
        "StateKit local runner " + System.getProperty("statekit.version", "?"), printed.trim());
  }

  private static String java() throws IOException {
    return ProcessHandle.current()
        .info()
        .command()
        .orElseThrow(() -> new IOException("cannot tell which java runs this test"));
  }
}
