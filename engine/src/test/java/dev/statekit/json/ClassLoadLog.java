package dev.statekit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class loading log of a fresh JVM running one main class on the test class path: what a cold
 * start loads, which a JVM already running the tests cannot tell.
 */
public final class ClassLoadLog {
  /** Loaded by {@code ObjectMapper}'s static initializer, by nothing that only names the class. */
  public static final String MAPPER_BUILT = "com.fasterxml.jackson.databind.cfg.BaseSettings ";

  /** Loaded by the first {@code JsonNode.toString()}. */
  public static final String NODE_MAPPER_BUILT =
      "com.fasterxml.jackson.databind.node.InternalNodeMapper ";

  private ClassLoadLog() {}

  /** Runs {@code main} with {@code args}; the log and its output, after it ended with status 0. */
  public static String of(String main, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xlog:class+load=info");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM did not end");
    String log = new String(output, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), log);
    return log;
  }
}
