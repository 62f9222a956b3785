package dev.statekit.benchmarks.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cold-start suite's options, checked before any JVM is started. */
class ColdStartSuiteTest {
  @AfterEach
  void clear() {
    System.clearProperty("statekit.coldstart.baselineJar");
    System.clearProperty("statekit.coldstart.kinds");
  }

  @Test
  void noBaselineUnlessOneIsNamed() {
    assertTrue(ColdStartSuite.baselineJar().isEmpty());
  }

  @Test
  void aBaselineThatIsNoFileIsRefusedWithWhatToGive() {
    System.setProperty("statekit.coldstart.baselineJar", "/nonexistent/old.jar");

    IllegalStateException refused =
        assertThrows(IllegalStateException.class, ColdStartSuite::baselineJar);
    assertTrue(refused.getMessage().contains("/nonexistent/old.jar"), refused.getMessage());
    assertTrue(refused.getMessage().contains("give the handlers jar"), refused.getMessage());
  }

  @Test
  void aBaselineJarIsTakenAsAnAbsolutePath(@TempDir Path dir) throws Exception {
    Path jar = Files.createFile(dir.resolve("old.jar"));
    System.setProperty("statekit.coldstart.baselineJar", jar.toString());

    assertEquals(jar.toAbsolutePath().toString(), ColdStartSuite.baselineJar().orElseThrow());
  }

  @Test
  void theAwsFloorRunsBesideExactlyThePayloadsThatCallAws() {
    List<String> reaching =
        ColdStartSuite.Kind.ALL.stream()
            .filter(ColdStartSuite.Kind::reachesAws)
            .map(ColdStartSuite.Kind::name)
            .toList();

    assertEquals(List.of("envelope", "sqs", "scheduled", "kinesis"), reaching);
    assertFalse(
        ColdStartSuite.Kind.ALL.stream()
            .filter(k -> k.name().startsWith("to-function") || k.name().equals("http-event"))
            .anyMatch(ColdStartSuite.Kind::reachesAws));
  }

  @Test
  void anUnknownKindIsRefusedWithTheKinds() {
    System.setProperty("statekit.coldstart.kinds", "envelope,nope");

    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, ColdStartSuite::kinds);
    assertTrue(refused.getMessage().contains("'nope'"), refused.getMessage());
    assertTrue(refused.getMessage().contains("envelope"), refused.getMessage());
  }
}
