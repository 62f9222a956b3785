package dev.statekit.stream.lambda;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A store that hands every call to another, for tests that change or watch some of them: override
 * those, and {@link #before} to see every call.
 */
abstract class ForwardingBatchStore implements BatchStore {
  private final BatchStore delegate;

  ForwardingBatchStore(BatchStore delegate) {
    this.delegate = delegate;
  }

  /** Runs before every call is handed on. */
  void before() {}

  @Override
  public boolean callsWait() {
    return delegate.callsWait();
  }

  @Override
  public Map<String, KeyItem> readKeys(String pipeline, String operator, Collection<String> keys) {
    before();
    return delegate.readKeys(pipeline, operator, keys);
  }

  @Override
  public Set<String> writeKeys(String pipeline, String operator, List<KeyWrite> writes) {
    before();
    return delegate.writeKeys(pipeline, operator, writes);
  }

  @Override
  public List<SplitState> readSplits(String pipeline) {
    before();
    return delegate.readSplits(pipeline);
  }

  @Override
  public void putAttempt(String pipeline, String split, Attempt attempt, long expiresAt) {
    before();
    delegate.putAttempt(pipeline, split, attempt, expiresAt);
  }

  @Override
  public boolean putAttemptInOrder(String pipeline, String split, Attempt attempt, long expiresAt) {
    before();
    return delegate.putAttemptInOrder(pipeline, split, attempt, expiresAt);
  }

  @Override
  public List<Attempt> latestAttempts(String pipeline, String split, int limit) {
    before();
    return delegate.latestAttempts(pipeline, split, limit);
  }

  @Override
  public List<Attempt> attempts(String pipeline, String split, String from, String to) {
    before();
    return delegate.attempts(pipeline, split, from, to);
  }

  @Override
  public Map<String, byte[]> readReceipts(String pipeline, String split, Collection<String> ids) {
    before();
    return delegate.readReceipts(pipeline, split, ids);
  }

  @Override
  public void writeReceipts(
      String pipeline, String split, Map<String, byte[]> receipts, long expiresAt) {
    before();
    delegate.writeReceipts(pipeline, split, receipts, expiresAt);
  }

  @Override
  public void putDeferred(String pipeline, String split, List<DeferredMessage> messages) {
    before();
    delegate.putDeferred(pipeline, split, messages);
  }

  @Override
  public List<DeferredMessage> deferred(String pipeline, String split, int limit) {
    before();
    return delegate.deferred(pipeline, split, limit);
  }

  @Override
  public DeferredMessage lastDeferred(String pipeline, String split) {
    before();
    return delegate.lastDeferred(pipeline, split);
  }

  @Override
  public void deleteDeferred(String pipeline, String split, Collection<String> orders) {
    before();
    delegate.deleteDeferred(pipeline, split, orders);
  }

  @Override
  public boolean writeSplit(String pipeline, SplitState state) {
    before();
    return delegate.writeSplit(pipeline, state);
  }

  @Override
  public void putTimers(String pipeline, List<TimerItem> timers) {
    before();
    delegate.putTimers(pipeline, timers);
  }

  @Override
  public List<TimerItem> timersDueBy(String pipeline, long time, int limit) {
    before();
    return delegate.timersDueBy(pipeline, time, limit);
  }

  @Override
  public void deleteTimers(String pipeline, Collection<String> ids) {
    before();
    delegate.deleteTimers(pipeline, ids);
  }
}
