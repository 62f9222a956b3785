package dev.statekit.runtime.store;

import dev.statekit.function.Address;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a store keeps for one function address: its values, a version for optimistic
 * concurrency, its pending cancellation tokens, and the runtime's own bookkeeping (what was already
 * applied, the outbox of the last commit), which stores keep as opaque bytes.
 *
 * <p>Immutable. The maps are copied; the byte array is handed over, never changed.
 */
public final class AddressState {
  private static final byte[] NONE = new byte[0];

  private final Address address;
  private final long version;
  private final Map<String, StoredValue> values;
  private final Map<String, TimerKey> pendingTokens;
  private final byte[] runtimeData;
  private final long outboxVersion;
  private final OutboxKey outboxKey;
  private final long expiresAtSeconds;
  private final long expiresWithoutTokensSeconds;

  /**
   * A state.
   *
   * @param version 0 for an address never written, then 1, 2, ... per commit
   * @param values the persisted values by state name
   * @param pendingTokens the cancellation tokens of this address's pending timers
   * @param runtimeData the runtime's bookkeeping, opaque to stores
   * @param outboxVersion the version whose commit produced the outbox in {@code runtimeData}, 0 if
   *     none
   * @param outboxKey where that outbox was registered before its commit ({@link
   *     FunctionStore#registerOutboxes}), {@code null} if there is none
   * @param expiresAtSeconds when the store may delete the whole state (epoch seconds), 0 for never
   */
  public AddressState(
      Address address,
      long version,
      Map<String, StoredValue> values,
      Map<String, TimerKey> pendingTokens,
      byte[] runtimeData,
      long outboxVersion,
      OutboxKey outboxKey,
      long expiresAtSeconds) {
    this(
        address,
        version,
        values,
        pendingTokens,
        runtimeData,
        outboxVersion,
        outboxKey,
        expiresAtSeconds,
        pendingTokens.isEmpty() ? expiresAtSeconds : 0);
  }

  /**
   * A state that knows when it may go once its pending tokens are freed: another address's commit
   * frees them (the delayed message they name was delivered), and the store then gives the state
   * this expiry without the owner running again.
   *
   * @param expiresAtSeconds when the store may delete the whole state (epoch seconds), 0 for never
   * @param expiresWithoutTokensSeconds what {@code expiresAtSeconds} is once no token is pending
   *     (epoch seconds), 0 for never
   * @see #AddressState(Address, long, Map, Map, byte[], long, OutboxKey, long)
   */
  public AddressState(
      Address address,
      long version,
      Map<String, StoredValue> values,
      Map<String, TimerKey> pendingTokens,
      byte[] runtimeData,
      long outboxVersion,
      OutboxKey outboxKey,
      long expiresAtSeconds,
      long expiresWithoutTokensSeconds) {
    this.address = Objects.requireNonNull(address, "address");
    if (version < 0
        || outboxVersion < 0
        || expiresAtSeconds < 0
        || expiresWithoutTokensSeconds < 0) {
      throw new IllegalArgumentException("versions and expiry are 0 or more");
    }
    this.version = version;
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.pendingTokens = Collections.unmodifiableMap(new LinkedHashMap<>(pendingTokens));
    this.runtimeData = Objects.requireNonNull(runtimeData, "runtimeData");
    this.outboxVersion = outboxVersion;
    this.outboxKey = outboxKey;
    this.expiresAtSeconds = expiresAtSeconds;
    this.expiresWithoutTokensSeconds = expiresWithoutTokensSeconds;
  }

  /** The state of an address that was never written: version 0, nothing stored. */
  public static AddressState absent(Address address) {
    return new AddressState(address, 0, Map.of(), Map.of(), NONE, 0, null, 0);
  }

  /** The address. */
  public Address address() {
    return address;
  }

  /** 0 for an address never written, otherwise the number of commits so far. */
  public long version() {
    return version;
  }

  /** The values by state name, including expired ones (see {@link StoredValue#isExpiredAt}). */
  public Map<String, StoredValue> values() {
    return values;
  }

  /** The cancellation tokens of this address's pending timers, each with its timer. */
  public Map<String, TimerKey> pendingTokens() {
    return pendingTokens;
  }

  /** The runtime's bookkeeping (not a copy: never change it). Stores keep it as it is. */
  public byte[] runtimeData() {
    return runtimeData;
  }

  /** The version of the commit whose outbox {@link #runtimeData()} holds; 0 if none. */
  public long outboxVersion() {
    return outboxVersion;
  }

  /**
   * Where the outbox of {@link #outboxVersion()} was registered; while it is registered there, the
   * outbox is not known delivered. {@code null} if there is no outbox.
   */
  public OutboxKey outboxKey() {
    return outboxKey;
  }

  /** When the store may delete the whole state, in epoch seconds; 0 for never. */
  public long expiresAtSeconds() {
    return expiresAtSeconds;
  }

  /**
   * When the store may delete the whole state once none of its tokens is pending, in epoch seconds;
   * 0 for never. Equal to {@link #expiresAtSeconds()} while none is.
   */
  public long expiresWithoutTokensSeconds() {
    return expiresWithoutTokensSeconds;
  }

  /**
   * This state with {@code tokens} freed by another address's commit and {@code version}: it
   * expires as it would have without them once none is left.
   */
  public AddressState withTokensFreed(Set<String> tokens, long version) {
    Map<String, TimerKey> remaining = new LinkedHashMap<>(pendingTokens);
    remaining.keySet().removeAll(tokens);
    return new AddressState(
        address,
        version,
        values,
        remaining,
        runtimeData,
        outboxVersion,
        outboxKey,
        remaining.isEmpty() ? expiresWithoutTokensSeconds : expiresAtSeconds,
        expiresWithoutTokensSeconds);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof AddressState)) {
      return false;
    }
    AddressState that = (AddressState) other;
    return address.equals(that.address)
        && version == that.version
        && values.equals(that.values)
        && pendingTokens.equals(that.pendingTokens)
        && Arrays.equals(runtimeData, that.runtimeData)
        && outboxVersion == that.outboxVersion
        && Objects.equals(outboxKey, that.outboxKey)
        && expiresAtSeconds == that.expiresAtSeconds
        && expiresWithoutTokensSeconds == that.expiresWithoutTokensSeconds;
  }

  @Override
  public int hashCode() {
    return Objects.hash(address, version, values, pendingTokens, outboxVersion);
  }

  @Override
  public String toString() {
    return address
        + " v"
        + version
        + " values="
        + values.keySet()
        + " tokens="
        + pendingTokens.keySet()
        + " outbox="
        + outboxVersion
        + (outboxKey == null ? "" : " at " + outboxKey.asString());
  }
}
