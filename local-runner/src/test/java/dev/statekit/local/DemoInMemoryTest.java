package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The demo with nothing but the JDK. */
class DemoInMemoryTest {
  @Test
  void everyExampleRunsEndToEndInMemory() {
    Run run = Run.of("demo", "--in-memory");

    assertEquals(0, run.status(), run.toString());
    DemoIT.assertTheExamplesWorked(run.out());
  }
}
