/**
 * The runtime's implementation. Public only so StateKit's own packages can use it; not for users,
 * and it may change in any release.
 *
 * <p>A batch's steps, and the class for each:
 *
 * <ol>
 *   <li><b>take in</b>: {@link dev.statekit.runtime.internal.DeliveryTranslator} turns direct
 *       invocations and queue messages into {@code Delivery}s (bodies read by {@code
 *       QueueBodyCodec} and {@link dev.statekit.bus.EnvelopeCodec}, addresses by {@link
 *       dev.statekit.bus.AddressResolver}), each holding {@code InboundInvocation}s, and answers
 *       with each delivery's {@code DeliveryOutcome}.
 *   <li><b>load</b>: {@link dev.statekit.runtime.internal.BatchProcessor} reads every address's
 *       state and timers in one batch read, then hands each address to an {@code AddressCommitter},
 *       in parallel ({@code ParallelCalls}).
 *   <li><b>run</b>: {@code RepeatFilter} drops what {@code AppliedMarks} says was applied; {@code
 *       CommitPlanner} has {@code InvocationRunner} run the rest through the engine, each run's
 *       {@code RunResult} recording what became of each invocation.
 *   <li><b>check</b>: {@code EffectCheck} accepts or refuses each invocation's effects (delays,
 *       tokens, routes, sizes); {@code CommitPlanner} dead-letters a refused invocation and runs
 *       again without it, until the run is accepted and its {@code NextState} fits: a {@code
 *       CommitPlan}. {@code OutboxBuilder} packs the outgoing messages and egress records.
 *   <li><b>commit</b>: {@code AddressCommitter} writes the {@code NextState} once, conditionally on
 *       the version read, and on a conflict reads again and redoes the run.
 *   <li><b>deliver</b>: {@code OutboxDelivery} sends each {@code PendingOutbox} (messages to the
 *       queue, egress records to sinks, {@code DeadLetters} to the dead-letter queue), remembered
 *       by {@code DeliveredCache}.
 * </ol>
 *
 * <p>Outside a batch: {@link dev.statekit.runtime.internal.TimerSweeper} sends due delayed
 * messages; {@link dev.statekit.runtime.internal.RuntimeSettings} holds what every part shares;
 * {@link dev.statekit.runtime.internal.FaultHook} lets the runtime's tests stop a batch between
 * steps.
 */
package dev.statekit.runtime.internal;
