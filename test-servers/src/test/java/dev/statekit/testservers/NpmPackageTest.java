package dev.statekit.testservers;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpmPackageTest {

  @Test
  void missingNpmFailsWithWhatToDo(@TempDir Path prefix) {
    String previous = System.getProperty("statekit.npm");
    System.setProperty("statekit.npm", prefix.resolve("no-such-npm").toString());
    try {
      var failure =
          assertThrows(
              ServerUnavailableException.class,
              () ->
                  new NpmPackage("@dynoxide/linux-x64", "1.2.1", prefix)
                      .install("The DynamoDB test server (Dynoxide)", Dynoxide.HINT));

      assertTrue(failure.getMessage().contains("Install Node.js with npm"), failure.getMessage());
      assertTrue(failure.getMessage().contains("STATEKIT_DYNAMODB_ENDPOINT"), failure.getMessage());
    } finally {
      if (previous == null) {
        System.clearProperty("statekit.npm");
      } else {
        System.setProperty("statekit.npm", previous);
      }
    }
  }

  @Test
  void platformFollowsNodeNaming() {
    String platform = Dynoxide.platform();
    assertTrue(platform.matches("(linux|darwin|win32)-(x64|arm64)"), platform);
  }
}
