package dev.statekit.testservers;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where npm-installed servers and their logs go: the build directory, or the user's cache. */
final class ServersDirectory {
  private ServersDirectory() {}

  static Path resolve() {
    String configured = System.getProperty("statekit.servers.dir");
    Path dir =
        configured != null && !configured.isBlank()
            ? Path.of(configured)
            : Path.of(System.getProperty("user.home"), ".statekit", "servers");
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new ServerUnavailableException(
          "Cannot create the servers directory "
              + dir
              + ": "
              + e.getMessage()
              + ". Set -Dstatekit.servers.dir to a writable directory.",
          e);
    }
    return dir;
  }
}
