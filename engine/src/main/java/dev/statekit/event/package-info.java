/**
 * The events StateKit's engines consume, independent of who delivers them: SQS messages ({@link
 * dev.statekit.event.QueueRecord}), Kinesis and DynamoDB Streams records ({@link
 * dev.statekit.event.KinesisRecord}, {@link dev.statekit.event.ChangeRecord}), scheduled events
 * ({@link dev.statekit.event.ScheduledEvent}), and the consumers an engine offers for them ({@link
 * dev.statekit.event.BatchConsumer}, {@link dev.statekit.event.EnvelopeConsumer}, {@link
 * dev.statekit.event.ScheduledTask}). The function runtime offers {@code envelopeConsumer()},
 * {@code queueConsumer()} and {@code sweepTask()}; a batch pipeline {@code kinesisConsumer()},
 * {@code dynamoDbConsumer()}, {@code queueConsumer()} and {@code tickTask()}; the entry point
 * routes payloads to whichever the application registered, knowing neither engine.
 */
package dev.statekit.event;
