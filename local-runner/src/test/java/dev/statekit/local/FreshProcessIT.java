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
  private static final Path TEMPLATE = Path.of("..", "template.yaml").toAbsolutePath().normalize();

  @Test
  void stateWithoutAServeRefusesInsteadOfShowingEmptyServers() throws Exception {
    Path directory = Files.createTempDirectory("no-serve");
    Files.copy(TEMPLATE, directory.resolve("template.yaml"));
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
  void theJarHoldsNoApplicationAndRunsTheOneItsTemplateNames() throws Exception {
    try (var jar = new java.util.jar.JarFile(JAR.toFile())) {
      assertTrue(
          jar.stream().noneMatch(e -> e.getName().startsWith("dev/statekit/examples/")),
          "the runner's jar carries the examples");
    }
    // From another directory, as a user's project would: the code comes from the template's
    // CodeUri (examples/target/statekit-examples.jar), not from the runner.
    Path directory = Files.createTempDirectory("elsewhere");
    Process process =
        new ProcessBuilder(
                java(),
                "-jar",
                JAR.toString(),
                "demo",
                "--in-memory",
                "--template",
                TEMPLATE.toString())
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(180, TimeUnit.SECONDS), "demo did not end within 180 s");
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(0, process.exitValue(), printed);
    assertTrue(printed.contains("StateKit demo of examples"), printed);
    DemoIT.assertTheExamplesWorked(printed);
  }

  @Test
  void aTemplateWhoseCodeIsNotBuiltSaysToBuildIt() throws Exception {
    Path directory = Files.createTempDirectory("unbuilt");
    Files.copy(TEMPLATE, directory.resolve("template.yaml"));
    Process process =
        new ProcessBuilder(java(), "-jar", JAR.toString(), "demo", "--in-memory")
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "demo did not end within 60 s");
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(1, process.exitValue(), printed);
    assertTrue(printed.contains("which does not exist: build it (mvn package)"), printed);
    assertTrue(!printed.contains("\tat "), "no stack trace: " + printed);
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
