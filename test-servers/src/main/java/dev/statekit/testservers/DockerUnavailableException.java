package dev.statekit.testservers;

/** The LocalStack profile was chosen where no Docker engine runs; tests skip with this message. */
public final class DockerUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DockerUnavailableException(String message) {
    super(message);
  }
}
