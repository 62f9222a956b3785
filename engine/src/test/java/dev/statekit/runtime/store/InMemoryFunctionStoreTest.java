package dev.statekit.runtime.store;

class InMemoryFunctionStoreTest extends FunctionStoreContract {
  private final InMemoryFunctionStore store = new InMemoryFunctionStore();

  @Override
  FunctionStore store() {
    return store;
  }
}
