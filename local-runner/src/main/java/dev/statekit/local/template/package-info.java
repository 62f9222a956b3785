/**
 * {@code template.yaml} as the local runner reads it: resources, functions with their environment
 * and event sources, CloudFormation's intrinsic functions resolved against local resources, and the
 * creation of the same tables, queues and streams on the emulators, LocalStack or AWS.
 */
package dev.statekit.local.template;
