package dev.statekit.stream.lambda;

class InMemoryBatchStoreTest extends BatchStoreContract {
  private final BatchStore store = new InMemoryBatchStore();

  @Override
  BatchStore store() {
    return store;
  }
}
