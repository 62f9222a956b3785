package dev.statekit.runtime;

/** The reliability cases on the in-memory adapters, with the runtime's default limits. */
class ReliabilityCasesTest extends ReliabilityCasesContract {
  @Override
  int senders() {
    return 10_000;
  }

  @Override
  int markCapacity() {
    return 32;
  }
}
